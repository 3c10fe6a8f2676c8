import { parseDuration } from "../../../shared/time/duration.js";
import { HandoffError } from "../../../shared/errors.js";
import { AUTO_EXPIRY_MS, AUTO_KEYWORD } from "../../../shared/hook/decide.js";
import { implement } from "../command.js";
import { oneLine } from "../../platform/terminal.js";
import type { pruneSpec } from "./spec.js";
import { deleteHandoffs, listStore } from "../../lib/store-index.js";
import { timestampMs } from "../../../shared/time/timestamps.js";

export interface PruneResult {
  older_than_seconds: number;
  /** Only automatic handoffs were considered (--auto). */
  auto: boolean;
  dry_run: boolean;
  removed: { path: string; created_at: string }[];
  kept: number;
  warnings: string[];
}

export const command = implement<typeof pruneSpec>()({
  async run({ flags, ctx }): Promise<PruneResult> {
    const auto = flags.auto === true;
    if (flags["older-than"] === undefined && !auto) {
      throw new HandoffError("usage", "handoff prune needs --older-than D", {
        hint: "run 'handoff prune --older-than 30d', or 'handoff prune --auto' for automatic handoffs (add --dry-run to see what it would delete)",
      });
    }
    const seconds =
      flags["older-than"] === undefined
        ? AUTO_EXPIRY_MS / 1000
        : parseDuration(flags["older-than"], "--older-than", "prune removes handoffs older than an age of at least one second (--older-than 1s removes all but this second's)");
    const cutoff = ctx.now().getTime() - seconds * 1000;
    const { entries, warnings } = listStore(ctx.env);
    // listStore keeps only entries whose created_at parses; one that did not would be kept, never deleted.
    const old = entries.filter((e) => (!auto || e.keywords.includes(AUTO_KEYWORD)) && (timestampMs(e.created_at) ?? Number.POSITIVE_INFINITY) < cutoff);
    if (!flags["dry-run"]) deleteHandoffs(old);
    return { older_than_seconds: seconds, auto, dry_run: Boolean(flags["dry-run"]), removed: old.map(({ path, created_at }) => ({ path, created_at })), kept: entries.length - old.length, warnings };
  },
  human(result) {
    const verb = result.dry_run ? "would remove" : "removed";
    const lines = [...result.warnings.map((w) => `warning: ${w}`), ...result.removed.map((e) => `${verb} ${oneLine(e.path)} (created ${e.created_at})`)];
    lines.push(`${result.dry_run ? "Would remove" : "Removed"} ${result.removed.length}, kept ${result.kept}.`);
    return { err: lines.join("\n") };
  },
  outcome: () => "ok",
});
