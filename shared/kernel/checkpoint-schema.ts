import * as z from "zod/mini";
import { kernelSchemas } from "./schema.js";
import { KERNEL_CHECKPOINT_SCHEMA_ID } from "./sections.js";

/**
 * kernel.checkpoint/v1 as zod, equal in meaning to its public JSON Schema
 * (test/shared/kernel/schema.test.ts). Validation runs the pass compiled from it (checkpoint.ts).
 */

/**
 * Built on first use, and never to validate: validation runs ajv's validator generated from it
 * (schema-validators.ts, `npm run kernel:schemas`).
 *
 * @internal Its readers are the generator and the tests that hold the generated pass to it.
 */
export function kernelCheckpointSchema(): ReturnType<typeof buildCheckpointSchema> {
  checkpointSchema ??= buildCheckpointSchema();
  return checkpointSchema;
}

let checkpointSchema: ReturnType<typeof buildCheckpointSchema> | undefined;

function buildCheckpointSchema() {
  const { contextBudgetSchema, contextPolicySchema, contextSelectorSchema } = kernelSchemas();
  return z.strictObject({
    schema: z.literal(KERNEL_CHECKPOINT_SCHEMA_ID),
    identity: z.strictObject({ name: z.string(), created: z.string(), session: z.optional(z.string()) }),
    provenance: z.strictObject({
      branch: z.string(),
      commit: z.string(),
      dirty: z.boolean(),
      dirty_tree_sha256: z.optional(z.string()),
    }),
    task: z.strictObject({
      goal: z.string(),
      handoff_ref: z.optional(z.string()),
      contract_ref: z.optional(z.string()),
    }),
    steps_completed: z.array(z.strictObject({ step: z.string(), evidence: z.string() })),
    current_outputs: z.optional(z.array(z.string())),
    pending_steps: z.array(z.string()),
    resume: z.strictObject({
      position: z.string(),
      entrypoint: z.optional(z.string()),
      next_operation: z.string(),
    }),
    context: z.optional(
      z.strictObject({
        policy: z.optional(contextPolicySchema),
        required: z.optional(z.array(contextSelectorSchema)),
        forbidden: z.optional(z.array(z.string())),
        budget: z.optional(contextBudgetSchema),
      }),
    ),
  });
}

export type KernelCheckpoint = z.infer<ReturnType<typeof buildCheckpointSchema>>;
