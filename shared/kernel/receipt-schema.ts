import * as z from "zod/mini";
import { CONTEXT_RECEIPT_SCHEMA_ID, RECEIPT_STATUSES, SELECTION_OUTCOMES } from "./receipt-fields.js";
import { jsonInt } from "./zod-check.js";

/**
 * kernel.context-receipt/v1 as zod, equal in meaning to its public JSON Schema
 * (test/shared/kernel/schema.test.ts). Validation runs the pass compiled from it (receipt.ts).
 */

/**
 * Built on first use, and never to validate: validation runs ajv's validator generated from it
 * (schema-validators.ts, `npm run kernel:schemas`).
 *
 * @internal Its readers are the generator and the tests that hold the generated pass to it.
 */
export function contextReceiptSchema(): ReturnType<typeof buildReceiptSchema> {
  receiptSchema ??= buildReceiptSchema();
  return receiptSchema;
}

let receiptSchema: ReturnType<typeof buildReceiptSchema> | undefined;

function buildReceiptSchema() {
  const optionalInt = z.optional(jsonInt());
  return z.strictObject({
    schema: z.literal(CONTEXT_RECEIPT_SCHEMA_ID),
    manifest: z.string(),
    manifest_sha256: z.string(),
    bundle_sha256: z.string(),
    requested_model: z.string(),
    observed_model: z.string(),
    requested_effort: z.string(),
    observed_effort: z.string(),
    fallback_authorized: z.boolean(),
    fallback_reason: z.optional(z.string()),
    safety: z.enum(["normal", "protected", "unknown"]),
    builder_identity: z.string(),
    verifier_identity: z.string(),
    created: z.optional(z.string()),
    manifest_tokens: optionalInt,
    project_instructions_tokens: optionalInt,
    always_skills_tokens: optionalInt,
    workflow_skills_tokens: optionalInt,
    domain_skills_tokens: optionalInt,
    selected_artifacts_tokens: optionalInt,
    agentdb_tokens: optionalInt,
    total_estimated_tokens: jsonInt(),
    target_budget_tokens: optionalInt,
    maximum_budget_tokens: optionalInt,
    status: z.enum(RECEIPT_STATUSES),
    estimation_method: z.string(),
    selections: z.optional(
      z.array(
        z.strictObject({
          selector: z.string(),
          resolved: z.boolean(),
          outcome: z.enum(SELECTION_OUTCOMES),
          resolved_sha256: z.optional(z.string()),
          estimated_tokens: jsonInt(),
          note: z.optional(z.string()),
        }),
      ),
    ),
    loads_beyond_manifest: z.optional(
      z.array(
        z.strictObject({
          path: z.string(),
          reason: z.optional(z.string()),
          estimated_tokens: optionalInt,
          ts: z.optional(z.string()),
        }),
      ),
    ),
    migrated_fields: z.optional(z.array(z.string())),
  });
}

export type ContextReceipt = z.infer<ReturnType<typeof buildReceiptSchema>>;
