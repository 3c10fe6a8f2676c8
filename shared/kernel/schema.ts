import * as z from "zod";
import { jsonInt } from "./issues.js";
import { KERNEL_HANDOFF_SCHEMA_ID } from "./sections.js";

/**
 * kernel.handoff/v1 as zod, equal in meaning to the public JSON Schema
 * (../shared/spec/kernel/kernel.handoff.v1.schema.json): the same required keys, types, enums and
 * integer bounds. Every object is strict: kernel's reference validator rejects unknown keys at
 * every level (its schema's description says so), so a key another tool invents is an error, not
 * a passenger. A handoff's provenance has no dirty_tree_sha256: only a checkpoint's has. What JSON
 * Schema cannot say (one of path / git_diff, phase references, timestamps) lives in rules.ts.
 *
 * @example
 * ```ts
 * kernelHandoffSchema.safeParse(JSON.parse(text)).success
 * ```
 */

export { KERNEL_HANDOFF_SCHEMA_ID, KERNEL_SECTIONS } from "./sections.js";

export const PHASE_STATUSES = ["inherited", "required", "invalidated"] as const;
export const POLICY_MODES = ["sealed", "bounded", "advisory"] as const;
export const PREFLIGHT_CHECKS = ["current_branch", "path_exists", "argv"] as const;

const strings = z.array(z.string());

/** Context selector v1; which keys may be combined is a rule, not a schema matter. */
export const contextSelectorSchema = z.strictObject({
  path: z.string().optional(),
  lines: z.string().optional(),
  heading: z.string().optional(),
  grep: z.string().optional(),
  context: jsonInt().optional(),
  git_diff: z.string().optional(),
  reason: z.string().optional(),
});

export const contextPolicySchema = z.strictObject({ mode: z.enum(POLICY_MODES) });

export const contextBudgetSchema = z.strictObject({
  target_tokens: jsonInt({ min: 1 }).optional(),
  max_tokens: jsonInt({ min: 1 }).optional(),
});

export const kernelHandoffSchema = z.strictObject({
  schema: z.literal(KERNEL_HANDOFF_SCHEMA_ID),
  identity: z.strictObject({
    name: z.string(),
    created: z.string(),
    session: z.string().optional(),
    tier: jsonInt({ min: 1, max: 3 }).optional(),
  }),
  provenance: z.strictObject({
    branch: z.string(),
    commit: z.string(),
    dirty: z.boolean(),
    artifacts: z
      .array(z.strictObject({ path: z.string(), sha256: z.string(), purpose: z.string().optional() }))
      .optional(),
    retrospective_refs: strings.optional(),
  }),
  objective: z.strictObject({
    goal: z.string(),
    success_conditions: strings,
    non_goals: strings.optional(),
  }),
  contract: z
    .strictObject({
      ref: z.string().optional(),
      invariants: strings.optional(),
      assumptions: strings.optional(),
      decisions_accepted: z
        .array(z.strictObject({ decision: z.string(), rationale: z.string().optional() }))
        .optional(),
      alternatives_rejected: z
        .array(z.strictObject({ alternative: z.string(), reason: z.string().optional() }))
        .optional(),
    })
    .optional(),
  workflow: z.strictObject({
    phases: z.array(
      z.strictObject({ name: z.string(), status: z.enum(PHASE_STATUSES), evidence: z.string().optional() }),
    ),
    invalidation_rules: z
      .array(
        z.strictObject({
          when: z.strictObject({ event: z.string(), path_glob: z.string().optional() }),
          invalidates: strings,
        }),
      )
      .optional(),
  }),
  runtime: z
    .strictObject({
      required_skills: z
        .array(z.strictObject({ name: z.string(), version: jsonInt().optional(), sha256: z.string().optional() }))
        .optional(),
      optional_skills: strings.optional(),
      preflight: z
        .array(
          z.strictObject({
            check: z.enum(PREFLIGHT_CHECKS),
            expected: z.string().optional(),
            path: z.string().optional(),
            argv: strings.optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  context: z.strictObject({
    policy: contextPolicySchema,
    required: z.array(contextSelectorSchema).optional(),
    optional: z.array(contextSelectorSchema).optional(),
    forbidden: strings.optional(),
    budget: contextBudgetSchema.optional(),
  }),
  execution: z.strictObject({
    entry_phase: z.string(),
    entrypoint: z.string().optional(),
    stop_conditions: strings.optional(),
    checkpoints: strings.optional(),
  }),
  open_threads: strings.optional(),
  warnings: strings.optional(),
  outputs: z.strictObject({ required: strings.optional(), completion: z.string().optional() }).optional(),
  resume: z.strictObject({ prompt: z.string() }),
});

export type KernelHandoff = z.infer<typeof kernelHandoffSchema>;
export type ContextSelector = z.infer<typeof contextSelectorSchema>;
