import type { JsonPathSegment } from "./json-path.js";

/**
 * What a kernel schema pass says, in the words of the JSON document: one definition shared by
 * the zod reference (zod-check.ts turns zod's issues into these) and the ajv validators generated
 * from the same zod schemas (schema-checks.ts turns ajv's errors into these), so validating a
 * document loads no zod.
 */

/** An issue before sorting: where (path segments) and what. */
export interface FoundIssue {
  segments: JsonPathSegment[];
  message: string;
}

/** A strict object's key that is not in its shape, one issue per key, as kernel's reference reports them. */
export const UNKNOWN_KEY = "is not a field of this schema (unknown keys are rejected)";

const EXPECTED_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number with a fraction";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * A value of the wrong type; JSON has no undefined, so an undefined input is a missing key.
 *
 * @example
 * ```ts
 * mustBeType("string", 5) // "must be a string, not an integer"
 * mustBeType("string", undefined) // "is required"
 * ```
 */
export function mustBeType(expected: string, input: unknown): string {
  if (input === undefined) return "is required";
  return `must be ${EXPECTED_NAMES[expected] ?? expected}, not ${typeName(input)}`;
}

/**
 * A value outside a literal or an enum.
 *
 * @example
 * ```ts
 * mustBeValue(["sealed", "bounded"], "open") // 'must be one of "sealed", "bounded"'
 * ```
 */
export function mustBeValue(values: readonly unknown[], input: unknown): string {
  if (input === undefined) return "is required";
  return values.length === 1 ? `must be ${JSON.stringify(values[0])}` : `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
}

/** Below an inclusive minimum. */
export function mustBeAtLeast(minimum: unknown): string {
  return `must be at least ${String(minimum)}`;
}

/** Above an inclusive maximum. */
export function mustBeAtMost(maximum: unknown): string {
  return `must be at most ${String(maximum)}`;
}

/** A JSON object (not null, not an array), the only input a strict object schema reads. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
