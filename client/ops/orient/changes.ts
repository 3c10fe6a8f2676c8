import type { ChangesSummary } from "../../../shared/changes/bundle.js";
import type { DriftItem } from "../../../shared/orient/drift.js";
import { HandoffError } from "../../../shared/errors.js";
import type { AppliedChanges, ChangesPreview } from "../../lib/changes/apply.js";
import type { RunContext } from "../../lib/run-context.js";
import type { SourceSelection, SourceText } from "./source.js";

/** What a source's changes bundle holds, and what --apply-changes (or its --dry-run) did with it. */
export interface ChangesFacts {
  changes?: ChangesSummary;
  /** The bundle cannot be read (malformed, a path git would refuse, another version): why. */
  changes_refused?: string;
  /**
   * The commands that preview and apply the bundle (never run for you), given only in a checkout
   * of the handoff's repository; elsewhere `apply_where` says where to run them.
   */
  preview_command?: string;
  apply_command?: string;
  apply_where?: string;
  /** --apply-changes --dry-run: every file with its change, mode, size and flags; nothing written. */
  changes_preview?: ChangesPreview;
  changes_applied?: AppliedChanges;
  /** --apply-changes refused or met a conflict: why, and nothing was applied. */
  changes_not_applied?: { message: string; hint?: string; path?: string; conflicts?: string[]; flagged?: string[] };
}

export interface ApplyRequest {
  apply: boolean;
  dryRun?: boolean;
  allowFlagged?: boolean;
}

/**
 * The changes bundle a source carries (sealed in a share link, or written beside a file), and
 * with `apply`, the bundle previewed or applied to the checkout (or why not: nothing is
 * half-applied). A refusal is returned, not thrown: the orientation still stands. `again` is the
 * command that reads this source again (for a share link it reads the local copy: no view),
 * `drift` the orientation's, which says whether this checkout is the handoff's repository.
 */
export async function sourceChanges(selection: SourceSelection, text: SourceText, again: string, request: ApplyRequest, drift: DriftItem[], ctx: RunContext): Promise<ChangesFacts> {
  const facts: ChangesFacts = {};
  let bytes = text.changes;
  if (bytes === undefined && selection.kind === "file") {
    const { readChangesBeside } = await import("../../lib/changes/beside.js");
    bytes = readChangesBeside(selection.path, text.text, ctx.env);
  }
  if (bytes === undefined) {
    if (request.apply) throw new HandoffError("usage", "--apply-changes: this handoff carries no changes bundle", { hint: "the sender creates or publishes one with --with-changes" });
    return facts;
  }
  const { decodeChanges, summarizeChanges } = await import("../../../shared/changes/bundle.js");
  const bundle = decodeChanges(bytes);
  if (!bundle.ok) {
    // The handoff still orients; its bundle is refused whole, and an apply says so.
    facts.changes_refused = bundle.error.message;
    if (request.apply) facts.changes_not_applied = { message: `--apply-changes: ${bundle.error.message}; nothing was applied`, ...(bundle.error.hint ? { hint: bundle.error.hint } : {}) };
    return facts;
  }
  facts.changes = summarizeChanges(bundle.value);
  const { workTreeRoot } = await import("../../platform/work-tree.js");
  const elsewhere = drift.find((d) => (d.event === "repository_mismatch" || d.event === "repo_root_mismatch") && d.status !== "ok");
  if (workTreeRoot(ctx.cwd, ctx.env) === undefined || elsewhere) {
    const repository = typeof elsewhere?.expected === "string" ? elsewhere.expected : "the repository the handoff is about";
    facts.apply_where = `in a checkout of ${repository}: its changes apply only there`;
  } else {
    facts.preview_command = `${again} --apply-changes --dry-run`;
    facts.apply_command = `${again} --apply-changes`;
  }
  if (!request.apply) return facts;
  try {
    // The checkout's drift against the bundle's commit stops an apply with the one command for
    // its case; a dry run still lists the files, and says what to run first.
    const commit = await baseDrift(bundle.value.manifest.base, ctx);
    const blocked = commit && {
      message: `--apply-changes: ${commit.message}; nothing was applied`,
      hint: commit.fix ? `run ${commit.fix}, then apply again: ${facts.apply_command ?? "--apply-changes"}` : "reconcile the checkout with the bundle's commit by hand, then apply again",
    };
    const { applyChanges } = await import("../../lib/changes/apply.js");
    const done = await applyChanges(bundle.value, ctx.cwd, ctx.env, { dryRun: request.dryRun === true, allowFlagged: request.allowFlagged === true, ...(blocked ? { blocked } : {}) });
    if ("preview" in done) facts.changes_preview = done.preview;
    else facts.changes_applied = done.applied;
  } catch (error) {
    if (!(error instanceof HandoffError) || (error.reason !== "diverged" && error.reason !== "invalid_document")) throw error;
    const details = (error.details ?? {}) as { conflicts?: string[]; flagged?: string[]; path?: string };
    facts.changes_not_applied = {
      message: error.message,
      ...(error.hint ? { hint: error.hint } : {}),
      ...(details.path ? { path: details.path } : {}),
      ...(details.conflicts ? { conflicts: details.conflicts } : {}),
      ...(details.flagged ? { flagged: details.flagged } : {}),
    };
  }
  return facts;
}

/**
 * The drift of this checkout against the bundle's own commit, when HEAD does not contain it: the
 * same diagnosis and the same one command per case the orientation gives (shared/orient/drift.ts),
 * so the fix printed for the handoff and the fix printed for its bundle never differ.
 */
async function baseDrift(base: { head: string; branch?: string }, ctx: RunContext): Promise<DriftItem | undefined> {
  const { observeCheckout } = await import("./observe.js");
  const { computeDrift } = await import("../../../shared/orient/drift.js");
  const recorded = { head: base.head, ...(base.branch ? { branch: base.branch } : {}) };
  const { observed } = await observeCheckout(recorded, "", ctx.cwd, ctx.env);
  if (!observed.inGit) return undefined;
  return computeDrift(recorded, observed).find((d) => d.event === "commit_diverged" && d.status !== "ok");
}
