import * as z from "zod";
import { KERNEL_HANDOFF_SCHEMA_ID } from "./sections.js";

/**
 * kernel.handoff/v1 as zod, equal in meaning to the public JSON Schema
 * (test/fixtures/kernel/kernel.handoff.v1.schema.json): the same required keys, types, enums and
 * integer bounds. That schema never sets `additionalProperties: false`, so every object here is
 * loose: keys other tools add survive a round trip. What JSON Schema cannot say (one of path /
 * git_diff, phase references, timestamps) lives in rules.ts.
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
export const contextSelectorSchema = z.looseObject({
  path: z.string().optional(),
  lines: z.string().optional(),
  heading: z.string().optional(),
  grep: z.string().optional(),
  context: z.int().optional(),
  git_diff: z.string().optional(),
  reason: z.string().optional(),
});

export const contextPolicySchema = z.looseObject({ mode: z.enum(POLICY_MODES) });

export const contextBudgetSchema = z.looseObject({
  target_tokens: z.int().min(1).optional(),
  max_tokens: z.int().min(1).optional(),
});

export const kernelHandoffSchema = z.looseObject({
  schema: z.literal(KERNEL_HANDOFF_SCHEMA_ID),
  identity: z.looseObject({
    name: z.string(),
    created: z.string(),
    session: z.string().optional(),
    tier: z.int().min(1).max(3).optional(),
  }),
  provenance: z.looseObject({
    branch: z.string(),
    commit: z.string(),
    dirty: z.boolean(),
    // Not in the public schema's properties, but the spec and the checkpoint schema use it
    // when dirty is true; declared here only so its type is known.
    dirty_tree_sha256: z.string().optional(),
    artifacts: z
      .array(z.looseObject({ path: z.string(), sha256: z.string(), purpose: z.string().optional() }))
      .optional(),
    retrospective_refs: strings.optional(),
  }),
  objective: z.looseObject({
    goal: z.string(),
    success_conditions: strings,
    non_goals: strings.optional(),
  }),
  contract: z
    .looseObject({
      ref: z.string().optional(),
      invariants: strings.optional(),
      assumptions: strings.optional(),
      decisions_accepted: z
        .array(z.looseObject({ decision: z.string(), rationale: z.string().optional() }))
        .optional(),
      alternatives_rejected: z
        .array(z.looseObject({ alternative: z.string(), reason: z.string().optional() }))
        .optional(),
    })
    .optional(),
  workflow: z.looseObject({
    phases: z.array(
      z.looseObject({ name: z.string(), status: z.enum(PHASE_STATUSES), evidence: z.string().optional() }),
    ),
    invalidation_rules: z
      .array(
        z.looseObject({
          when: z.looseObject({ event: z.string(), path_glob: z.string().optional() }),
          invalidates: strings,
        }),
      )
      .optional(),
  }),
  runtime: z
    .looseObject({
      required_skills: z
        .array(z.looseObject({ name: z.string(), version: z.int().optional(), sha256: z.string().optional() }))
        .optional(),
      optional_skills: strings.optional(),
      preflight: z
        .array(
          z.looseObject({
            check: z.enum(PREFLIGHT_CHECKS),
            expected: z.string().optional(),
            path: z.string().optional(),
            argv: strings.optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  context: z.looseObject({
    policy: contextPolicySchema,
    required: z.array(contextSelectorSchema).optional(),
    optional: z.array(contextSelectorSchema).optional(),
    forbidden: strings.optional(),
    budget: contextBudgetSchema.optional(),
  }),
  execution: z.looseObject({
    entry_phase: z.string(),
    entrypoint: z.string().optional(),
    stop_conditions: strings.optional(),
    checkpoints: strings.optional(),
  }),
  open_threads: strings.optional(),
  warnings: strings.optional(),
  outputs: z.looseObject({ required: strings.optional(), completion: z.string().optional() }).optional(),
  resume: z.looseObject({ prompt: z.string() }),
});

export type KernelHandoff = z.infer<typeof kernelHandoffSchema>;
export type ContextSelector = z.infer<typeof contextSelectorSchema>;
