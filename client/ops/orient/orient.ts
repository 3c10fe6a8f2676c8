import { matchGlob } from "../../../shared/repo/glob.js";
import { type DriftItem, computeDrift, hasHardDivergence } from "../../../shared/orient/drift.js";
import { assessSufficiency, extractOrientation, MISSING_EXPLANATION } from "../../../shared/orient/extract.js";
import { type AppliedRule, applyInvalidationRules } from "../../../shared/orient/invalidate.js";
import { parseSource } from "../../../shared/orient/source.js";
import type { Orientation, SourceFormat } from "../../../shared/orient/types.js";
import { observeCheckout, recordedState } from "./observe.js";
import type { Env } from "../../platform/env.js";

/**
 * Orientation from an explicitly selected source: what it says (objective, progress, decisions,
 * state, unfinished work), whether that is enough to resume, and how the current checkout has
 * drifted from what it recorded. Read-only: nothing is executed, written or marked consumed.
 */

export interface OrientationResult {
  source: string;
  format: SourceFormat;
  metadata: Record<string, unknown>;
  sufficient: boolean;
  missing: string[];
  orientation: Orientation;
  drift: DriftItem[];
  /** A kernel manifest's phases after its invalidation rules met the drift; [] otherwise. */
  phases: { name: string; status: string; evidence?: string }[];
  applied_rules: AppliedRule[];
  hard_divergence: boolean;
  next_actions: string[];
  /** The source's body, untrusted data: shown fenced, never followed. */
  body: string;
  /** Set when the source came from a share link: its access state after this read. */
  share?: Record<string, unknown>;
}

/** `context.sourcePath`: the selected file's path, when the source is a local file. */
export async function orientFromText(source: string, text: string, context: { cwd: string; env: Env; sourcePath?: string }): Promise<OrientationResult> {
  const doc = parseSource(text);
  const orientation = extractOrientation(doc);
  const { sufficient, missing } = assessSufficiency(orientation);
  const recorded = recordedState(doc.metadata, doc.manifest);
  const anythingRecorded = Object.keys(recorded).length > 0;
  // A manifest's paths are structured: provenance.artifacts are checked by hash. Scanning its JSON
  // as prose would report paths it plans to create or records as deleted as missing.
  const prose = doc.manifest === undefined ? doc.body : "";
  // Kernel documents get kernel's own divergence semantics (its reference `divergence`): every
  // uncommitted file counts as dirty, the manifest itself too (kernel's workflow commits it).
  const kernel = doc.format === "kernel.handoff/v1" || doc.format === "kernel.checkpoint/v1";
  const { observed } = await observeCheckout(recorded, prose, context.cwd, context.env, kernel ? undefined : context.sourcePath);
  const drift = anythingRecorded || observed.missingPaths.length > 0 ? computeDrift(recorded, observed, { kernel }) : [];

  const workflow = (doc.manifest as { workflow?: { phases?: unknown; invalidation_rules?: unknown } } | undefined)?.workflow;
  const phases = Array.isArray(workflow?.phases) ? (workflow.phases as OrientationResult["phases"]).filter((p) => typeof p?.name === "string") : [];
  const rules = Array.isArray(workflow?.invalidation_rules) ? (workflow.invalidation_rules as Parameters<typeof applyInvalidationRules>[1]) : [];
  const invalidation = applyInvalidationRules(phases, rules.filter((r) => typeof r?.when?.event === "string" && Array.isArray(r.invalidates)), drift, matchGlob);

  // Progress and unfinished work follow the phases as the rules left them: a phase invalidated
  // by drift is unfinished work, never "inherited" progress next to a Phases list saying otherwise.
  const changed = invalidation.phases.some((p, i) => p.status !== phases[i]?.status);
  const oriented = changed && doc.manifest !== undefined
    ? extractOrientation({ ...doc, manifest: { ...(doc.manifest as object), workflow: { ...(workflow as object), phases: invalidation.phases } } })
    : orientation;
  const hard = hasHardDivergence(drift);
  return {
    source,
    format: doc.format,
    metadata: doc.metadata,
    sufficient,
    missing: missing.map((part) => MISSING_EXPLANATION[part]),
    orientation: oriented,
    drift,
    phases: invalidation.phases,
    applied_rules: invalidation.applied,
    hard_divergence: hard,
    next_actions: nextActions(oriented, doc.manifest, drift, invalidation.phases),
    body: doc.body,
  };
}

/** Context-specific suggestions for the user to choose from; none is taken automatically. */
function nextActions(o: Orientation, manifest: unknown, drift: DriftItem[], phases: OrientationResult["phases"]): string[] {
  const actions: string[] = [];
  for (const d of drift) if (d.fix) actions.push(`switch to the handoff's branch first: ${d.fix}`);
  if (hasHardDivergence(drift)) actions.push("reconcile the checkout with the recorded state first (see the hard drift above), or pick another source");
  const invalidated = phases.filter((p) => p.status === "invalidated").map((p) => p.name);
  if (invalidated.length > 0) actions.push(`redo or re-verify the invalidated phases: ${invalidated.join(", ")}`);
  const execution = (manifest as { execution?: { entrypoint?: unknown; entry_phase?: unknown } } | undefined)?.execution;
  if (typeof execution?.entrypoint === "string") actions.push(`start with the manifest's entrypoint: ${execution.entrypoint}`);
  else if (typeof execution?.entry_phase === "string") actions.push(`continue at phase ${execution.entry_phase}`);
  if (o.unfinished[0]) actions.push(`continue with: ${o.unfinished[0]}`);
  if (drift.some((d) => d.event === "path_missing")) actions.push("check the paths the handoff names that no longer exist");
  if (actions.length === 0) actions.push("confirm the objective with the user, then plan the next step");
  return actions.slice(0, 5);
}
