import { HandoffError } from "../errors.js";
import { type KernelCheckpoint, validateKernelCheckpoint } from "./checkpoint.js";
import { KERNEL_CHECKPOINT_SCHEMA_ID } from "./sections.js";
import type { KernelHandoff } from "./schema.js";

/**
 * Builds a kernel.checkpoint/v1 from the state of resumed work: the checkout's provenance, the
 * parent handoff's phases with the ones finished since marked done, and where the work stands.
 * Pure: the caller captures git and reads the parent. Only keys the checkpoint schema names are
 * written (kernel's reference rejects any other key).
 *
 * @example
 * ```ts
 * buildCheckpoint({ name: "auth", created: "2026-07-10T21:45:00Z", provenance: { branch: "main", commit: "abc", dirty: false },
 *   goal: "Ship auth", done: [], pending: ["tests"], position: "routes written", next: "npm test" }).pending_steps // ["tests"]
 * ```
 */

export interface CheckpointProvenance {
  branch: string;
  commit: string;
  dirty: boolean;
  /** Required when dirty: sha256 of `git diff --binary HEAD`. */
  dirty_tree_sha256?: string;
}

export interface CheckpointInput {
  name: string;
  created: string;
  session?: string;
  provenance: CheckpointProvenance;
  goal: string;
  handoffRef?: string;
  contractRef?: string;
  /** Steps finished: `{step, evidence}`, evidence being a command output, a commit, a passing test. */
  done: { step: string; evidence: string }[];
  pending: string[];
  outputs?: string[];
  position: string;
  next: string;
  entrypoint?: string;
  /** The parent handoff, whose phases and context policy carry over. */
  parent?: KernelHandoff;
}

/** Steps from the parent's phases: inherited ones were done (with their evidence), the rest are pending. */
export function phaseSteps(parent: KernelHandoff, ref: string): { done: { step: string; evidence: string }[]; pending: string[] } {
  const done: { step: string; evidence: string }[] = [];
  const pending: string[] = [];
  for (const phase of parent.workflow.phases) {
    if (phase.status === "inherited") done.push({ step: phase.name, evidence: phase.evidence ?? `inherited in ${ref}` });
    else pending.push(phase.name);
  }
  return { done, pending };
}

export function buildCheckpoint(input: CheckpointInput): KernelCheckpoint {
  if (input.provenance.dirty && !input.provenance.dirty_tree_sha256) {
    throw new HandoffError("internal", "a dirty checkpoint needs dirty_tree_sha256");
  }
  // Steps named done leave the pending list; a step done twice keeps its latest evidence.
  const doneByStep = new Map(input.done.map((d) => [d.step, d]));
  const pending = [...new Set(input.pending)].filter((step) => !doneByStep.has(step));
  const checkpoint: KernelCheckpoint = {
    schema: KERNEL_CHECKPOINT_SCHEMA_ID,
    identity: { name: input.name, created: input.created, ...(input.session ? { session: input.session } : {}) },
    provenance: {
      branch: input.provenance.branch,
      commit: input.provenance.commit,
      dirty: input.provenance.dirty,
      ...(input.provenance.dirty ? { dirty_tree_sha256: input.provenance.dirty_tree_sha256! } : {}),
    },
    task: {
      goal: input.goal,
      ...(input.handoffRef ? { handoff_ref: input.handoffRef } : {}),
      ...(input.contractRef ? { contract_ref: input.contractRef } : {}),
    },
    steps_completed: [...doneByStep.values()],
    ...(input.outputs && input.outputs.length > 0 ? { current_outputs: input.outputs } : {}),
    pending_steps: pending,
    resume: { position: input.position, ...(input.entrypoint ? { entrypoint: input.entrypoint } : {}), next_operation: input.next },
  };
  const context = input.parent?.context;
  if (context) {
    // The checkpoint's context has no `optional` list; policy, required, forbidden and budget carry over.
    checkpoint.context = {
      policy: { mode: context.policy.mode },
      ...(context.required ? { required: context.required.map(selectorKeys) } : {}),
      ...(context.forbidden ? { forbidden: context.forbidden } : {}),
      ...(context.budget ? { budget: budgetKeys(context.budget) } : {}),
    };
  }
  const check = validateKernelCheckpoint(checkpoint);
  if (!check.ok) {
    throw new HandoffError("invalid_document", `the checkpoint does not validate, so it was not written: ${check.issues.map((i) => `${i.path || "$"}: ${i.message}`).join("; ")}`, {
      hint: "fix the values named (a parent manifest's context, a step, the position) and run it again",
      details: { issues: check.issues },
    });
  }
  return checkpoint;
}

const SELECTOR_KEYS = ["path", "lines", "heading", "grep", "context", "git_diff", "reason"] as const;

function selectorKeys(selector: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SELECTOR_KEYS.filter((key) => selector[key] !== undefined).map((key) => [key, selector[key]]));
}

function budgetKeys(budget: { target_tokens?: number | undefined; max_tokens?: number | undefined }): { target_tokens?: number; max_tokens?: number } {
  return {
    ...(budget.target_tokens !== undefined ? { target_tokens: budget.target_tokens } : {}),
    ...(budget.max_tokens !== undefined ? { max_tokens: budget.max_tokens } : {}),
  };
}
