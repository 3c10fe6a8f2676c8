import { matchGlob } from "../../../shared/repo/glob.js";
import { type DriftCase, type DriftItem, computeDrift, hasHardDivergence } from "../../../shared/orient/drift.js";
import { extractOrientation } from "../../../shared/orient/extract.js";
import { explainSufficiency, judgeSource, type Verdict } from "../../../shared/orient/sufficiency.js";
import { type AppliedRule, applyInvalidationRules } from "../../../shared/orient/invalidate.js";
import { parseSource } from "../../../shared/orient/source.js";
import type { SourceFormat } from "../../../shared/document/sniff.js";
import type { Orientation } from "../../../shared/orient/types.js";
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
  /** Whether it is enough to orient from: false stops resume (exit 1), as the contract says. */
  sufficient: boolean;
  /** sufficient, unsure (something is missing or thin) or insufficient (it says next to nothing). */
  verdict: Verdict;
  /** What it lacks, in sentences: next to nothing said, no objective, no current state. */
  missing: string[];
  /** What is there but thin, in sentences. */
  thin: string[];
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
  const { orientation, sufficiency } = judgeSource(doc);
  const explained = explainSufficiency(sufficiency);
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
  const invalidation = applyInvalidationRules(
    phases,
    rules.filter((r) => typeof r?.when?.event === "string" && Array.isArray(r.invalidates)),
    drift,
    matchGlob,
  );

  // Progress and unfinished work follow the phases as the rules left them: a phase invalidated
  // by drift is unfinished work, never "inherited" progress next to a Phases list saying otherwise.
  const changed = invalidation.phases.some((p, i) => p.status !== phases[i]?.status);
  const oriented =
    changed && doc.manifest !== undefined ? extractOrientation({ ...doc, manifest: { ...(doc.manifest as object), workflow: { ...(workflow as object), phases: invalidation.phases } } }) : orientation;
  const hard = hasHardDivergence(drift);
  return {
    source,
    format: doc.format,
    metadata: doc.metadata,
    sufficient: sufficiency.sufficient,
    verdict: sufficiency.verdict,
    missing: explained.missing,
    thin: explained.thin,
    orientation: oriented,
    drift,
    phases: invalidation.phases,
    applied_rules: invalidation.applied,
    hard_divergence: hard,
    next_actions: nextActions(oriented, doc.manifest, drift, invalidation.phases),
    body: doc.body,
  };
}

const FIX_LABEL: Record<DriftCase, string> = {
  not_fetched: "fetch the recorded commit first, then resume again",
  behind: "fast-forward to the recorded commit first",
  other_branch: "switch to the handoff's branch first",
  remote_branch: "switch to the handoff's branch (it exists only on the remote) first",
  diverged: "reconcile the checkout first",
};

/**
 * Whether an unfinished item is something to do rather than a state sentence ("_meta/ is
 * untracked in this checkout."): a short subject followed by a form of "be" or "have" describes;
 * it does not ask.
 *
 * @example
 * ```ts
 * isTask("write the backoff test") // true
 * isTask("_meta/ is untracked in this checkout.") // false
 * ```
 */
export function isTask(item: string): boolean {
  const words = item
    .trim()
    .split(/\s+/)
    .slice(0, 6)
    .map((w) => w.toLowerCase().replace(/[^a-z']/g, ""));
  // "is" as the second or third word: a one- or two-word subject stated ("tests are red"); later,
  // it sits in a clause of an instruction ("make sure the build is green").
  const verb = words.findIndex((w) => STATE_VERBS.has(w));
  return verb !== 1 && verb !== 2;
}

const STATE_VERBS = new Set(["is", "are", "was", "were", "isn't", "aren't", "wasn't", "has", "have", "hasn't", "haven't", "remains", "remain", "stays", "looks", "seems"]);

/** Context-specific suggestions for the user to choose from; none is taken automatically. */
function nextActions(o: Orientation, manifest: unknown, drift: DriftItem[], phases: OrientationResult["phases"]): string[] {
  const actions: string[] = [];
  const fixes = new Set<string>();
  for (const d of drift) {
    if (!d.fix || d.status === "ok" || fixes.has(d.fix)) continue;
    fixes.add(d.fix);
    actions.push(`${FIX_LABEL[d.case ?? "other_branch"]}: ${d.fix}`);
  }
  // A hard item with its own command is resolved by it; only the rest needs reconciling by hand.
  if (drift.some((d) => d.severity === "hard" && !d.fix)) actions.push("reconcile the checkout with the recorded state by hand first (see the hard drift above), or pick another source");
  const invalidated = phases.filter((p) => p.status === "invalidated").map((p) => p.name);
  if (invalidated.length > 0) actions.push(`redo or re-verify the invalidated phases: ${invalidated.join(", ")}`);
  const execution = (manifest as { execution?: { entrypoint?: unknown; entry_phase?: unknown } } | undefined)?.execution;
  if (typeof execution?.entrypoint === "string") actions.push(`start with the manifest's entrypoint: ${execution.entrypoint}`);
  else if (typeof execution?.entry_phase === "string") actions.push(`continue at phase ${execution.entry_phase}`);
  const task = o.unfinished.find(isTask);
  if (task) actions.push(`continue with: ${task}`);
  if (drift.some((d) => d.event === "path_missing")) actions.push("check the paths the handoff names that no longer exist");
  if (actions.length === 0) actions.push("confirm the objective with the user, then plan the next step");
  return actions.slice(0, 5);
}
