import { type JsonPathSegment, compareJsonPaths, formatJsonPath } from "./json-path.js";
import { type FoundIssue, isJsonObject } from "./schema-issues.js";

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

/**
 * A schema pass: it pushes what is wrong and returns the parsed value, which is the typed value
 * when it pushed nothing. The kernel documents' passes are ajv's validators generated from their
 * zod schemas (schema-checks.ts, no zod at run time); zod-check.ts runs the same pass with zod.
 */
export type SchemaCheck<T> = (value: unknown, issues: FoundIssue[]) => T;

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
  // The rules add to `found`: no issue at all means the schema pass found none either.
  const issues = sorted(found, rules, value);
  const warnings = sorted([], advisories, value);
  const ok = issues.length === 0;
  return ok ? { ok, issues, warnings, value: parsed } : { ok: false, issues, warnings };
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
