import { defineCommand } from "../command.js";

export const rmSpec = defineCommand({
  name: "rm",
  summary: "Delete handoffs from the managed store.",
  args: "PATH...",
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, missing: "the handoff file(s) to delete" },
  description: `Delete handoffs from the managed store. Only files inside the store that are provably
handoffs (a regular file with ce-handoff/v1 frontmatter, owned by you) are deleted; anything
else is refused and left alone.`,
  flags: {},
  exits: { 0: "deleted", 1: "a file is not a handoff in the managed store (nothing deleted)", 2: "usage", 3: "failed delete" },
});
