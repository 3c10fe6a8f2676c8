import type { ChangesSummary } from "../../../shared/changes/bundle.js";
import { HandoffError } from "../../../shared/errors.js";
import type { AppliedChanges } from "../../lib/changes/apply.js";
import type { RunContext } from "../../lib/run-context.js";
import type { SourceSelection, SourceText } from "./source.js";

/** What a source's changes bundle holds, and what --apply-changes did with it. */
export interface ChangesFacts {
  changes?: ChangesSummary;
  /** The command that applies the bundle (never run for you). */
  apply_command?: string;
  changes_applied?: AppliedChanges;
  /** --apply-changes refused or met a conflict: why, and nothing was applied. */
  changes_not_applied?: { message: string; hint?: string; conflicts?: string[] };
}

/**
 * The changes bundle a source carries (sealed in a share link, or written beside a file), and
 * with `apply`, the bundle applied to the checkout (or why not: nothing is half-applied). A
 * conflict is returned, not thrown, since reading a share link spent a view and the
 * orientation still stands. `again` is the command that read this source, for the apply hint.
 */
export async function sourceChanges(selection: SourceSelection, text: SourceText, again: string, apply: boolean, ctx: RunContext): Promise<ChangesFacts> {
  const facts: ChangesFacts = {};
  let bytes = text.changes;
  if (bytes === undefined && selection.kind === "file") {
    const { readChangesBeside } = await import("../../lib/changes/beside.js");
    bytes = readChangesBeside(selection.path, text.text, ctx.env);
  }
  if (bytes === undefined) {
    if (apply) throw new HandoffError("usage", "--apply-changes: this handoff carries no changes bundle", { hint: "the sender creates or publishes one with --with-changes" });
    return facts;
  }
  const { decodeChanges, summarizeChanges } = await import("../../../shared/changes/bundle.js");
  const bundle = decodeChanges(bytes);
  if (!bundle.ok) throw bundle.error;
  facts.changes = summarizeChanges(bundle.value);
  if (!apply) {
    facts.apply_command = `${again} --apply-changes`;
    return facts;
  }
  const { applyChanges } = await import("../../lib/changes/apply.js");
  try {
    facts.changes_applied = await applyChanges(bundle.value, ctx.cwd, ctx.env);
  } catch (error) {
    if (!(error instanceof HandoffError) || error.reason !== "diverged") throw error;
    const conflicts = (error.details as { conflicts?: string[] } | undefined)?.conflicts;
    facts.changes_not_applied = { message: error.message, ...(error.hint ? { hint: error.hint } : {}), ...(conflicts ? { conflicts } : {}) };
  }
  return facts;
}
