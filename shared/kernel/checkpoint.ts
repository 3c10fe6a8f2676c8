import * as z from "zod";
import { type ValidationIssue, validateWith } from "./issues.js";
import { contextIsResolvable, createdIsRfc3339, provenanceIsPinned } from "./rules.js";
import { contextBudgetSchema, contextPolicySchema, contextSelectorSchema } from "./schema.js";

/**
 * kernel.checkpoint/v1, equal in meaning to its public JSON Schema: a smaller mid-task record a
 * resume can start from. The handoff rules that apply to its shared parts (timestamp,
 * provenance, context selectors) apply here too.
 */

export const KERNEL_CHECKPOINT_SCHEMA_ID = "kernel.checkpoint/v1";

export const kernelCheckpointSchema = z.looseObject({
  schema: z.literal(KERNEL_CHECKPOINT_SCHEMA_ID),
  identity: z.looseObject({ name: z.string(), created: z.string(), session: z.string().optional() }),
  provenance: z.looseObject({
    branch: z.string(),
    commit: z.string(),
    dirty: z.boolean(),
    dirty_tree_sha256: z.string().optional(),
  }),
  task: z.looseObject({
    goal: z.string(),
    handoff_ref: z.string().optional(),
    contract_ref: z.string().optional(),
  }),
  steps_completed: z.array(z.looseObject({ step: z.string(), evidence: z.string() })),
  current_outputs: z.array(z.string()).optional(),
  pending_steps: z.array(z.string()),
  resume: z.looseObject({
    position: z.string(),
    entrypoint: z.string().optional(),
    next_operation: z.string(),
  }),
  context: z
    .looseObject({
      policy: contextPolicySchema.optional(),
      required: z.array(contextSelectorSchema).optional(),
      forbidden: z.array(z.string()).optional(),
      budget: contextBudgetSchema.optional(),
    })
    .optional(),
});

export type KernelCheckpoint = z.infer<typeof kernelCheckpointSchema>;

/**
 * Validates a parsed kernel.checkpoint/v1; `ok` means a resume may treat it as a checkpoint.
 *
 * @example
 * ```ts
 * validateKernelCheckpoint(JSON.parse(text)).ok
 * ```
 */
export function validateKernelCheckpoint(value: unknown): { ok: boolean; issues: ValidationIssue[]; checkpoint?: KernelCheckpoint } {
  const result = validateWith(kernelCheckpointSchema, [createdIsRfc3339, provenanceIsPinned, contextIsResolvable], value);
  return result.value === undefined ? { ok: false, issues: result.issues } : { ok: true, issues: [], checkpoint: result.value };
}
