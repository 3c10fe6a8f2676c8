import * as z from "zod/mini";
import { emptyOrientation, type Orientation } from "./types.js";

/**
 * Orientation from kernel JSON (kernel.handoff/v1 manifests and kernel.checkpoint/v1). The
 * schemas here are deliberately lenient: a manifest that fails strict validation is still a
 * readable source, so a field of the wrong shape is skipped, not fatal. Strict validation is
 * shared/kernel's job.
 */

// Built on first use, not at import: create and resume import this module for every document
// but use it only for kernel JSON, and a bundle loads zod only when a schema is first built
// (scripts/build-cli.js).
let schemas: ReturnType<typeof buildSchemas> | undefined;
const lenient = () => (schemas ??= buildSchemas());

function buildSchemas() {
  // A field of the wrong shape reads as absent.
  const orAbsent = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);
  const text = orAbsent(z.string());
  const texts = orAbsent(
    z.pipe(
      z.array(z.unknown()),
      z.transform((items) => items.filter((item): item is string => typeof item === "string")),
    ),
  );
  const records = <T extends z.ZodMiniType>(item: T) =>
    orAbsent(
      z.pipe(
        z.array(z.unknown()),
        z.transform((items) =>
          items.flatMap((value) => {
            const parsed = item.safeParse(value);
            return parsed.success ? [parsed.data as z.output<T>] : [];
          }),
        ),
      ),
    );
  const section = <T extends z.core.$ZodLooseShape>(shape: T) => orAbsent(z.looseObject(shape));

  const LenientHandoff = z.looseObject({
    objective: section({ goal: text, success_conditions: texts, non_goals: texts }),
    contract: section({
      ref: text,
      invariants: texts,
      assumptions: texts,
      decisions_accepted: records(z.object({ decision: z.string(), rationale: text })),
      alternatives_rejected: records(z.object({ alternative: z.string(), reason: text })),
    }),
    provenance: section({ artifacts: records(z.object({ path: z.string(), purpose: text })) }),
    workflow: section({ phases: records(z.object({ name: z.string(), status: z.string(), evidence: text })) }),
    execution: section({ entry_phase: text, entrypoint: text, stop_conditions: texts }),
    open_threads: texts,
    warnings: texts,
  });

  const LenientCheckpoint = z.looseObject({
    task: section({ goal: text, handoff_ref: text, contract_ref: text }),
    steps_completed: records(z.object({ step: z.string(), evidence: text })),
    pending_steps: texts,
    current_outputs: texts,
    resume: section({ position: text, entrypoint: text, next_operation: text }),
  });
  return { LenientHandoff, LenientCheckpoint };
}

/**
 * Orientation from a kernel.handoff/v1 manifest: goal and success conditions as the objective,
 * contract decisions, invariants and rejected alternatives as decisions, inherited phases as
 * progress, required (and invalidated) phases and open threads as unfinished work, the execution
 * entry as the current state.
 *
 * @example
 * ```ts
 * kernelOrientation({ objective: { goal: "Ship 8.0" }, execution: { entry_phase: "docs" } })
 * // { objective: "Ship 8.0", current_state: "entry phase: docs", progress: [], ... }
 * ```
 */
export function kernelOrientation(manifest: unknown): Orientation {
  const out = emptyOrientation();
  const parsed = lenient().LenientHandoff.safeParse(manifest);
  if (!parsed.success) return out;
  const { objective, contract, provenance, workflow, execution, open_threads, warnings } = parsed.data;
  if (objective?.goal) {
    const conditions = objective.success_conditions ?? [];
    out.objective = conditions.length > 0 ? `${objective.goal}\nSuccess conditions:\n${conditions.map((c) => `- ${c}`).join("\n")}` : objective.goal;
  }
  for (const d of contract?.decisions_accepted ?? []) out.decisions.push(withNote(d.decision, "rationale", d.rationale));
  for (const invariant of contract?.invariants ?? []) out.decisions.push(`invariant: ${invariant}`);
  for (const assumption of contract?.assumptions ?? []) out.decisions.push(`assumption: ${assumption}`);
  for (const a of contract?.alternatives_rejected ?? []) out.decisions.push(withNote(`rejected: ${a.alternative}`, "reason", a.reason));
  for (const nonGoal of objective?.non_goals ?? []) out.decisions.push(`non-goal: ${nonGoal}`);
  for (const phase of workflow?.phases ?? []) {
    if (phase.status === "inherited") out.progress.push(withNote(`${phase.name} (inherited)`, "evidence", phase.evidence));
    else out.unfinished.push(`${phase.name} (${phase.status})`);
  }
  out.unfinished.push(...(open_threads ?? []));
  if (execution?.entry_phase || execution?.entrypoint) {
    const parts = [
      execution.entry_phase && `entry phase: ${execution.entry_phase}`,
      execution.entrypoint && `first operation: ${execution.entrypoint}`,
      execution.stop_conditions?.length ? `stop if: ${execution.stop_conditions.join("; ")}` : undefined,
    ];
    out.current_state = parts.filter(Boolean).join("\n");
  }
  out.warnings.push(...(warnings ?? []));
  // One line per path: the contract is usually also a pinned artifact.
  const labels = new Map<string, string[]>();
  const label = (path: string, what: string | undefined) => {
    const list = labels.get(path) ?? [];
    if (what) list.push(what);
    labels.set(path, list);
  };
  if (contract?.ref) label(contract.ref, "contract");
  for (const artifact of provenance?.artifacts ?? []) label(artifact.path, artifact.purpose);
  for (const [path, what] of labels) out.references.push(what.length > 0 ? `${path} (${what.join("; ")})` : path);
  return out;
}

/**
 * Orientation from a kernel.checkpoint/v1: task goal, completed steps with evidence, pending
 * steps, and the resume position and next operation as the current state.
 *
 * @example
 * ```ts
 * checkpointOrientation({ task: { goal: "g" }, resume: { position: "step 3", next_operation: "run tests" } })
 * // { objective: "g", current_state: "position: step 3\nnext operation: run tests", ... }
 * ```
 */
export function checkpointOrientation(checkpoint: unknown): Orientation {
  const out = emptyOrientation();
  const parsed = lenient().LenientCheckpoint.safeParse(checkpoint);
  if (!parsed.success) return out;
  const { task, steps_completed, pending_steps, current_outputs, resume } = parsed.data;
  if (task?.goal) out.objective = task.goal;
  for (const step of steps_completed ?? []) out.progress.push(withNote(step.step, "evidence", step.evidence));
  out.unfinished.push(...(pending_steps ?? []));
  const state = [
    resume?.position && `position: ${resume.position}`,
    resume?.entrypoint && `entrypoint: ${resume.entrypoint}`,
    resume?.next_operation && `next operation: ${resume.next_operation}`,
  ].filter(Boolean);
  if (state.length > 0) out.current_state = state.join("\n");
  if (task?.handoff_ref) out.references.push(`${task.handoff_ref} (parent handoff)`);
  if (task?.contract_ref) out.references.push(`${task.contract_ref} (contract)`);
  out.references.push(...(current_outputs ?? []));
  return out;
}

function withNote(main: string, label: string, note: string | undefined): string {
  return note ? `${main} (${label}: ${note})` : main;
}
