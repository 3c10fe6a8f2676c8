import * as z from "zod/mini";
import { jsonInt } from "./zod-check.js";
import { KERNEL_HANDOFF_SCHEMA_ID } from "./sections.js";

/**
 * kernel.handoff/v1 as zod, equal in meaning to the public JSON Schema
 * (../shared/spec/kernel/kernel.handoff.v1.schema.json): the same required keys, types, enums and
 * integer bounds. Every object is strict: kernel's reference validator rejects unknown keys at
 * every level (its schema's description says so), so a key another tool invents is an error, not
 * a passenger. A handoff's provenance has no dirty_tree_sha256: only a checkpoint's has. What JSON
 * Schema cannot say (one of path / git_diff, phase references, timestamps) lives in rules.ts.
 * Validation does not run these: it runs ajv's validators generated from them (schema-checks.ts,
 * regenerated with `npm run kernel:schemas`), which say what zod would without loading zod.
 *
 * @example
 * ```ts
 * kernelSchemas().kernelHandoffSchema.safeParse(JSON.parse(text)).success
 * ```
 */

export const PHASE_STATUSES = ["inherited", "required", "invalidated"] as const;
export const POLICY_MODES = ["sealed", "bounded", "advisory"] as const;
export const PREFLIGHT_CHECKS = ["current_branch", "path_exists", "argv"] as const;

/**
 * The schemas, built on first use: a command that only imports these types, or validates (see
 * above), builds none.
 */
export function kernelSchemas(): KernelSchemas {
  schemas ??= buildSchemas();
  return schemas;
}

type KernelSchemas = ReturnType<typeof buildSchemas>;
let schemas: KernelSchemas | undefined;

function buildSchemas() {
  const strings = z.array(z.string());

  /** Context selector v1; which keys may be combined is a rule, not a schema matter. */
  const contextSelectorSchema = z.strictObject({
    path: z.optional(z.string()),
    lines: z.optional(z.string()),
    heading: z.optional(z.string()),
    grep: z.optional(z.string()),
    context: z.optional(jsonInt()),
    git_diff: z.optional(z.string()),
    reason: z.optional(z.string()),
  });

  const contextPolicySchema = z.strictObject({ mode: z.enum(POLICY_MODES) });

  const contextBudgetSchema = z.strictObject({
    target_tokens: z.optional(jsonInt({ min: 1 })),
    max_tokens: z.optional(jsonInt({ min: 1 })),
  });

  const kernelHandoffSchema = z.strictObject({
    schema: z.literal(KERNEL_HANDOFF_SCHEMA_ID),
    identity: z.strictObject({
      name: z.string(),
      created: z.string(),
      session: z.optional(z.string()),
      tier: z.optional(jsonInt({ min: 1, max: 3 })),
    }),
    provenance: z.strictObject({
      branch: z.string(),
      commit: z.string(),
      dirty: z.boolean(),
      artifacts: z.optional(z.array(z.strictObject({ path: z.string(), sha256: z.string(), purpose: z.optional(z.string()) }))),
      retrospective_refs: z.optional(strings),
    }),
    objective: z.strictObject({
      goal: z.string(),
      success_conditions: strings,
      non_goals: z.optional(strings),
    }),
    contract: z.optional(
      z.strictObject({
        ref: z.optional(z.string()),
        invariants: z.optional(strings),
        assumptions: z.optional(strings),
        decisions_accepted: z.optional(z.array(z.strictObject({ decision: z.string(), rationale: z.optional(z.string()) }))),
        alternatives_rejected: z.optional(z.array(z.strictObject({ alternative: z.string(), reason: z.optional(z.string()) }))),
      }),
    ),
    workflow: z.strictObject({
      phases: z.array(z.strictObject({ name: z.string(), status: z.enum(PHASE_STATUSES), evidence: z.optional(z.string()) })),
      invalidation_rules: z.optional(
        z.array(
          z.strictObject({
            when: z.strictObject({ event: z.string(), path_glob: z.optional(z.string()) }),
            invalidates: strings,
          }),
        ),
      ),
    }),
    runtime: z.optional(
      z.strictObject({
        required_skills: z.optional(z.array(z.strictObject({ name: z.string(), version: z.optional(jsonInt()), sha256: z.optional(z.string()) }))),
        optional_skills: z.optional(strings),
        preflight: z.optional(
          z.array(
            z.strictObject({
              check: z.enum(PREFLIGHT_CHECKS),
              expected: z.optional(z.string()),
              path: z.optional(z.string()),
              argv: z.optional(strings),
            }),
          ),
        ),
      }),
    ),
    context: z.strictObject({
      policy: contextPolicySchema,
      required: z.optional(z.array(contextSelectorSchema)),
      optional: z.optional(z.array(contextSelectorSchema)),
      forbidden: z.optional(strings),
      budget: z.optional(contextBudgetSchema),
    }),
    execution: z.strictObject({
      entry_phase: z.string(),
      entrypoint: z.optional(z.string()),
      stop_conditions: z.optional(strings),
      checkpoints: z.optional(strings),
    }),
    open_threads: z.optional(strings),
    warnings: z.optional(strings),
    outputs: z.optional(z.strictObject({ required: z.optional(strings), completion: z.optional(z.string()) })),
    resume: z.strictObject({ prompt: z.string() }),
  });
  return { contextSelectorSchema, contextPolicySchema, contextBudgetSchema, kernelHandoffSchema };
}

export type KernelHandoff = z.infer<KernelSchemas["kernelHandoffSchema"]>;
export type ContextSelector = z.infer<KernelSchemas["contextSelectorSchema"]>;
