import { type ValidationIssue, validateWith } from "./issues.js";
import { KERNEL_HANDOFF_RULES } from "./rules.js";
import { type KernelHandoff, kernelHandoffSchema } from "./schema.js";
import { type StrictJsonError, parseStrictJson } from "./strict-json.js";

/** What `handoff validate` and `handoff render` need to say about a manifest. */
export interface KernelValidation {
  ok: boolean;
  /** Sorted by path, then message; empty when ok or when the text did not parse. */
  issues: ValidationIssue[];
  manifest?: KernelHandoff;
  /** Set when the text is not (strict) JSON; then no schema or rule ran. */
  parseError?: StrictJsonError;
}

/**
 * Validates an already-parsed value against kernel.handoff/v1: the schema, then every rule.
 *
 * @example
 * ```ts
 * validateKernelValue({ schema: "kernel.handoff/v1" }).issues[0]
 * // { path: "context", message: "is required" }
 * ```
 */
export function validateKernelValue(value: unknown): KernelValidation {
  const result = validateWith(kernelHandoffSchema, KERNEL_HANDOFF_RULES, value);
  return result.value === undefined ? { ok: false, issues: result.issues } : { ok: true, issues: [], manifest: result.value };
}

/**
 * Parses manifest text strictly (duplicate keys are errors) and validates it.
 *
 * @example
 * ```ts
 * validateKernelText('{"schema": 1, "schema": 2}').parseError
 * // { message: 'duplicate key "schema" ...', line: 1, column: 15, path: "schema" }
 * ```
 */
export function validateKernelText(text: string): KernelValidation {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return { ok: false, issues: [], parseError: parsed.error };
  return validateKernelValue(parsed.value);
}
