import { defineCommand } from "../command.js";

export const pruneSpec = defineCommand({
  name: "prune",
  summary: "Delete managed-store handoffs older than a duration.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Delete handoffs in the managed store created longer ago than --older-than. Only files that
are provably handoffs (ce-handoff/v1 frontmatter with a created_at) are considered.`,
  flags: {
    "older-than": { type: "string", value: "D", required: true, description: "Required: an age like 30d, 12h, 1w." },
    "dry-run": { type: "boolean", description: "List what would be deleted; delete nothing." },
  },
  exits: { 0: "pruned (also when nothing was old enough)", 2: "usage", 3: "failed delete" },
});
