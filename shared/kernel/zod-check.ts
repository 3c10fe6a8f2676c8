import * as z from "zod/mini";
import type { JsonPathSegment } from "./json-path.js";
import type { SchemaCheck } from "./issues.js";
import { UNKNOWN_KEY, mustBeAtLeast, mustBeAtMost, mustBeType, mustBeValue } from "./schema-issues.js";

/**
 * The kernel schemas' zod side, apart from the validators so that validating loads no zod: the
 * integer of JSON Schema the schemas are written with, and a schema pass run by zod in the words
 * of schema-issues.ts, which the generated passes (schema-checks.ts) are held to.
 */

/** zod's messages rewritten to say what the field needs, in the words of the JSON document. */
const errorMap = (issue: z.core.$ZodRawIssue): string | undefined => {
  switch (issue.code) {
    case "invalid_type":
      return mustBeType(issue.expected, issue.input);
    case "invalid_value":
      return mustBeValue(issue.values, issue.input);
    case "too_small":
      return mustBeAtLeast(issue.minimum);
    case "too_big":
      return mustBeAtMost(issue.maximum);
    default:
      return undefined;
  }
};

/**
 * `schema` run by zod, its issues in the words of {@link mustBeType} and friends, one issue per
 * unknown key. The generated validators must say exactly this (test/shared/kernel/schema-validators.test.ts).
 *
 * @internal Production validates with the generated passes; this is the reference they are tested against.
 */
export function zodCheck<S extends z.ZodMiniType>(schema: S): SchemaCheck<z.infer<S>> {
  return (value, found) => {
    const parsed = schema.safeParse(value, { error: errorMap });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const segments = issue.path.filter((s): s is JsonPathSegment => typeof s !== "symbol");
      // One issue per unknown key, at the key, as kernel's reference reports them.
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) found.push({ segments: [...segments, key], message: UNKNOWN_KEY });
      } else {
        found.push({ segments, message: issue.message });
      }
    }
    return undefined as z.infer<S>;
  };
}

/**
 * An integer as JSON Schema reads one: any whole number, beyond 2^53 too (zod's int() stops
 * there). Whether it was written as `2.0` is the strict parser's knowledge (integersAreLexical).
 */
export function jsonInt(bounds: { min?: number; max?: number } = {}) {
  const checks: z.core.$ZodCheck<number>[] = [];
  if (bounds.min !== undefined) checks.push(z.minimum(bounds.min));
  if (bounds.max !== undefined) checks.push(z.maximum(bounds.max));
  // The JSON Schema export says "integer", as the public schema does.
  return z.number().check(...checks, z.refine(Number.isInteger, { message: "must be an integer" }), z.meta({ type: "integer" }));
}
