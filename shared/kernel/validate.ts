import { KERNEL_HANDOFF_ADVISORIES } from "./advisories.js";
import { type KernelCheckpoint, validateKernelCheckpoint } from "./checkpoint.js";
import { checkKernelHandoff } from "./schema-checks.js";
import { KERNEL_CHECKPOINT_SCHEMA_ID, KERNEL_HANDOFF_SCHEMA_ID } from "./sections.js";
import { type ValidationIssue, asRecord, validateWith } from "./issues.js";
import { CONTEXT_RECEIPT_SCHEMA_ID, type ContextReceipt, validateContextReceipt } from "./receipt.js";
import { kernelHandoffRules } from "./rules.js";
import type { KernelHandoff } from "./schema.js";
import { type NumberLiteral, type StrictJsonError, parseStrictJsonWithNumbers } from "./strict-json.js";

/** What `handoff validate` and `handoff render` need to say about a manifest. */
export interface KernelValidation {
  ok: boolean;
  /** Contract violations, sorted by path, then message; empty when ok or when the text did not parse. */
  issues: ValidationIssue[];
  /** Advisories beyond the contract: they never make the manifest invalid. */
  warnings: ValidationIssue[];
  manifest?: KernelHandoff;
  /** Set when the text is not (strict) JSON; then no schema or rule ran. */
  parseError?: StrictJsonError;
}

/**
 * Validates an already-parsed value against kernel.handoff/v1: the schema, then every rule.
 * `numbers` (from parseStrictJsonWithNumbers) lets it tell `2.0` from `2`.
 *
 * @example
 * ```ts
 * validateKernelValue({ schema: "kernel.handoff/v1" }).issues[0]
 * // { path: "context", message: "is required" }
 * ```
 */
export function validateKernelValue(value: unknown, numbers: readonly NumberLiteral[] = []): KernelValidation {
  const result = validateWith(checkKernelHandoff, kernelHandoffRules(numbers), value, KERNEL_HANDOFF_ADVISORIES);
  const { issues, warnings } = result;
  return result.value === undefined ? { ok: false, issues, warnings } : { ok: true, issues, warnings, manifest: result.value };
}

/**
 * Parses kernel JSON as kernel's reference reads it: strictly (a duplicate key is an error, never
 * last-wins), and without a byte order mark (Python's json refuses one).
 */
export function parseKernelJson(text: string): { ok: true; value: unknown; numbers: NumberLiteral[] } | { ok: false; error: StrictJsonError } {
  if (text.charCodeAt(0) === 0xfeff) {
    return { ok: false, error: { message: "starts with a byte order mark (U+FEFF); kernel JSON is UTF-8 without one: save it without the BOM", line: 1, column: 1 } };
  }
  const parsed = parseStrictJsonWithNumbers(text);
  return parsed.ok ? { ok: true, value: parsed.value, numbers: parsed.numbers } : parsed;
}

/**
 * Parses manifest text strictly (duplicate keys and a BOM are errors) and validates it.
 *
 * @example
 * ```ts
 * validateKernelText('{"schema": 1, "schema": 2}').parseError
 * // { message: 'duplicate key "schema" ...', line: 1, column: 15, path: "schema" }
 * ```
 */
export function validateKernelText(text: string): KernelValidation {
  const parsed = parseKernelJson(text);
  if (!parsed.ok) return { ok: false, issues: [], warnings: [], parseError: parsed.error };
  return validateKernelValue(parsed.value, parsed.numbers);
}

/** The kernel documents Handoff validates, by their `schema` field. */
export const KERNEL_DOCUMENT_SCHEMAS = [KERNEL_HANDOFF_SCHEMA_ID, KERNEL_CHECKPOINT_SCHEMA_ID, CONTEXT_RECEIPT_SCHEMA_ID] as const;
export type KernelDocumentSchema = (typeof KERNEL_DOCUMENT_SCHEMAS)[number];

export interface KernelDocumentValidation {
  /** The document's `schema` when it is one of {@link KERNEL_DOCUMENT_SCHEMAS}. */
  schema?: KernelDocumentSchema;
  ok: boolean;
  issues: ValidationIssue[];
  warnings: ValidationIssue[];
  value?: KernelHandoff | KernelCheckpoint | ContextReceipt;
  parseError?: StrictJsonError;
}

/**
 * Validates any kernel document Handoff reads (a handoff manifest, a checkpoint or a context
 * receipt), chosen by its `schema` field, as kernel's reference `validate` does.
 *
 * @example
 * ```ts
 * validateKernelDocument('{"schema": "kernel.checkpoint/v1"}').schema // "kernel.checkpoint/v1"
 * validateKernelDocument('{"schema": "x"}').issues[0].path // "schema"
 * ```
 */
export function validateKernelDocument(text: string): KernelDocumentValidation {
  const parsed = parseKernelJson(text);
  if (!parsed.ok) {
    // Nesting past the bound is well-formed JSON that no kernel schema allows: invalid, not
    // unparseable (the reference parses it, then fails it).
    if (parsed.error.message.startsWith("nesting is deeper")) return { ok: false, issues: [{ path: "$", message: parsed.error.message }], warnings: [] };
    return { ok: false, issues: [], warnings: [], parseError: parsed.error };
  }
  const { value, numbers } = parsed;
  const id = asRecord(value)?.schema;
  switch (id) {
    case KERNEL_HANDOFF_SCHEMA_ID: {
      const result = validateKernelValue(value, numbers);
      return { schema: id, ok: result.ok, issues: result.issues, warnings: result.warnings, ...(result.manifest ? { value: result.manifest } : {}) };
    }
    case KERNEL_CHECKPOINT_SCHEMA_ID: {
      const result = validateKernelCheckpoint(value, numbers);
      return { schema: id, ok: result.ok, issues: result.issues, warnings: result.warnings, ...(result.checkpoint ? { value: result.checkpoint } : {}) };
    }
    case CONTEXT_RECEIPT_SCHEMA_ID: {
      const result = validateContextReceipt(value, numbers);
      return { schema: id, ok: result.ok, issues: result.issues, warnings: result.warnings, ...(result.receipt ? { value: result.receipt } : {}) };
    }
    default: {
      const where = asRecord(value) === undefined ? "$" : "schema";
      const message =
        where === "$" ? "must be a JSON object with a schema field" : `${id === undefined ? "is missing" : `is ${JSON.stringify(id)}`}; Handoff reads ${KERNEL_DOCUMENT_SCHEMAS.join(", ")}`;
      return { ok: false, issues: [{ path: where, message }], warnings: [] };
    }
  }
}
