import * as z from "zod/mini";
import { type JsonPathSegment, compareJsonPaths, formatJsonPath } from "./json-path.js";
import { type FoundIssue, UNKNOWN_KEY, isJsonObject, mustBeAtLeast, mustBeAtMost, mustBeType, mustBeValue } from "./schema-issues.js";

/**
 * The one result shape of every kernel validator (manifest, receipt, checkpoint): a schema pass
 * with readable messages plus a rules pass, issues sorted by path so output is deterministic.
 */

export interface ValidationIssue {
  /** JSON path such as `context.required[0].lines`; `$` is the document itself. */
  path: string;
  message: string;
}

export interface ValidationResult<T> {
  ok: boolean;
  issues: ValidationIssue[];
  /** Advisories: checks beyond the contract. They never make a document invalid. */
  warnings: ValidationIssue[];
  /** The typed value, only when `ok`. */
  value?: T;
}

/** Where a rule reports: a path (segments) and a message. */
export type Report = (path: readonly JsonPathSegment[], message: string) => void;

/** A semantic rule; it must not assume the schema passed, so it type-checks what it reads. */
export type Rule = (value: unknown, report: Report) => void;

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
 * A schema pass: it pushes what is wrong and returns the parsed value, which is the typed value
 * when it pushed nothing. The kernel documents' passes are compiled from their zod schemas
 * (compiled-schemas.ts, no zod at run time); {@link zodCheck} is the same pass run by zod.
 */
export type SchemaCheck<T> = (value: unknown, issues: FoundIssue[]) => T;

/**
 * `schema` run by zod, its issues in the words of {@link mustBeType} and friends, one issue per
 * unknown key. The compiled validators must say exactly this (test/shared/kernel/compiled-schemas.test.ts).
 *
 * @internal Production validates with the compiled passes; this is the reference they are tested against.
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
 * Runs the schema pass `check` and `rules` over `value` and returns every issue, sorted by path
 * then message. Rules run even when the schema fails, so one pass reports everything wrong.
 *
 * @example
 * ```ts
 * validateWith(checkKernelHandoff, [], {}).issues[0] // { path: "context", message: "is required" }
 * ```
 */
export function validateWith<T>(check: SchemaCheck<T>, rules: readonly Rule[], value: unknown, advisories: readonly Rule[] = []): ValidationResult<T> {
  const found: FoundIssue[] = [];
  const parsed = check(value, found);
  const schemaOk = found.length === 0;
  const issues = sorted(found, rules, value);
  const warnings = sorted([], advisories, value);
  const ok = issues.length === 0;
  return ok && schemaOk ? { ok, issues, warnings, value: parsed } : { ok: false, issues, warnings };
}

function sorted(found: FoundIssue[], rules: readonly Rule[], value: unknown): ValidationIssue[] {
  const report: Report = (segments, message) => void found.push({ segments: [...segments], message });
  for (const rule of rules) rule(value, report);
  found.sort((a, b) => compareJsonPaths(a.segments, b.segments) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return found.map((issue) => ({ path: formatJsonPath(issue.segments), message: issue.message }));
}

/**
 * Truthiness as kernel's reference (Python) reads it: missing, null, false, 0, "", [] and {}
 * are all "absent".
 *
 * @example
 * ```ts
 * pyTruthy("") // false
 * pyTruthy("x") // true
 * ```
 */
export function pyTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

// Python's str.isspace set: JavaScript's trim() lacks U+001C-U+001F and U+0085, and adds U+FEFF.
const PY_SPACE = "[\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");

/**
 * `str.strip()` as kernel's reference (Python) does it, so "blank" means the same on both sides.
 *
 * @example
 * ```ts
 * pyStrip("\u001f x \u0085") // "x"
 * ```
 */
export function pyStrip(text: string): string {
  return text.replace(PY_STRIP, "");
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

/** The value as a plain object, or undefined: rules read untrusted shapes through these. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isJsonObject(value) ? value : undefined;
}

/** The value as an array, or an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value if it is a string. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
