import { defineCommand } from "../command.js";

export const pruneSpec = defineCommand({
  name: "prune",
  summary: "Delete managed-store handoffs older than a duration.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Delete handoffs in the managed store created longer ago than --older-than. Only files that
are provably handoffs (ce-handoff/v1 frontmatter with a created_at) are considered. With --auto,
only automatic handoffs (keyword auto, written by 'handoff hook'), by default those past 7 days.`,
  flags: {
    "older-than": { type: "string", value: "D", description: "An age like 30d, 12h, 1w (required without --auto; with it, default 7d)." },
    auto: { type: "boolean", description: "Only automatic handoffs (keyword auto), as 'handoff hook' writes them." },
    "dry-run": { type: "boolean", description: "List what would be deleted; delete nothing." },
  },
  exits: { 0: "pruned (also when nothing was old enough)", 2: "usage", 3: "failed delete" },
});
