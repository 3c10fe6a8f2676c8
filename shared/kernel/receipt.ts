import * as z from "zod";
import { checkRfc3339 } from "./checks.js";
import { type Rule, type ValidationIssue, asArray, asRecord, asString, validateWith } from "./issues.js";

/**
 * kernel.context-receipt/v1, equal in meaning to its public JSON Schema, plus the two rules its
 * descriptions state: a fallback needs a reason, and safety "unknown" is only for a migrated
 * receipt that says so in migrated_fields.
 */

export const CONTEXT_RECEIPT_SCHEMA_ID = "kernel.context-receipt/v1";
export const RECEIPT_STATUSES = ["within_budget", "target_exceeded", "maximum_exceeded"] as const;
export const SELECTION_OUTCOMES = ["resolved", "empty", "invalid", "missing"] as const;

const optionalInt = z.int().optional();

export const contextReceiptSchema = z.looseObject({
  schema: z.literal(CONTEXT_RECEIPT_SCHEMA_ID),
  manifest: z.string(),
  manifest_sha256: z.string(),
  bundle_sha256: z.string(),
  requested_model: z.string(),
  observed_model: z.string(),
  requested_effort: z.string(),
  observed_effort: z.string(),
  fallback_authorized: z.boolean(),
  fallback_reason: z.string().optional(),
  safety: z.enum(["normal", "protected", "unknown"]),
  builder_identity: z.string(),
  verifier_identity: z.string(),
  created: z.string().optional(),
  manifest_tokens: optionalInt,
  project_instructions_tokens: optionalInt,
  always_skills_tokens: optionalInt,
  workflow_skills_tokens: optionalInt,
  domain_skills_tokens: optionalInt,
  selected_artifacts_tokens: optionalInt,
  agentdb_tokens: optionalInt,
  total_estimated_tokens: z.int(),
  target_budget_tokens: optionalInt,
  maximum_budget_tokens: optionalInt,
  status: z.enum(RECEIPT_STATUSES),
  estimation_method: z.string(),
  selections: z
    .array(
      z.looseObject({
        selector: z.string(),
        resolved: z.boolean(),
        outcome: z.enum(SELECTION_OUTCOMES),
        resolved_sha256: z.string().optional(),
        estimated_tokens: z.int(),
        note: z.string().optional(),
      }),
    )
    .optional(),
  loads_beyond_manifest: z
    .array(
      z.looseObject({
        path: z.string(),
        reason: z.string().optional(),
        estimated_tokens: optionalInt,
        ts: z.string().optional(),
      }),
    )
    .optional(),
  migrated_fields: z.array(z.string()).optional(),
});

export type ContextReceipt = z.infer<typeof contextReceiptSchema>;

const receiptRules: readonly Rule[] = [
  (value, report) => {
    const receipt = asRecord(value);
    if (receipt?.fallback_authorized === true && (asString(receipt.fallback_reason) ?? "").trim() === "") {
      report(["fallback_reason"], "is required and must not be empty when fallback_authorized is true");
    }
    if (receipt?.safety === "unknown" && !asArray(receipt.migrated_fields).includes("safety")) {
      report(["safety"], "may be 'unknown' only in a migrated receipt whose migrated_fields lists 'safety'");
    }
    asArray(receipt?.loads_beyond_manifest).forEach((load, i) => {
      const ts = asString(asRecord(load)?.ts);
      const problem = ts === undefined ? undefined : checkRfc3339(ts);
      if (problem) report(["loads_beyond_manifest", i, "ts"], problem);
    });
  },
];

/**
 * Validates a parsed kernel.context-receipt/v1.
 *
 * @example
 * ```ts
 * validateContextReceipt({ ...receipt, fallback_authorized: true }).issues
 * // [{ path: "fallback_reason", message: "is required and must not be empty when ..." }]
 * ```
 */
export function validateContextReceipt(value: unknown): { ok: boolean; issues: ValidationIssue[]; receipt?: ContextReceipt } {
  const result = validateWith(contextReceiptSchema, receiptRules, value);
  return result.value === undefined ? { ok: false, issues: result.issues } : { ok: true, issues: [], receipt: result.value };
}
