import { defineCommand } from "../commands/command.js";

export const hookSpec = defineCommand({
  name: "hook",
  summary: "Act on an agent's lifecycle hook event (stdin): automatic handoffs, start-up pointers.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Reads one hook event, as Claude Code or Codex sends it, as JSON on stdin, and acts by event:
PreCompact (manual or auto), PostCompact and SessionEnd write the session's automatic handoff from
its transcript into the managed store, or update it in place (keyword auto, never published; none
when nothing changed; before compactions at most one every 5 minutes; PostCompact carries the
agent's compact_summary; SessionEnd reads the transcript's first 1 MB and last 7 MB, to return
within the agents' time budget); SessionStart prints, as the hook's additional context, a short
orientation quoted from that handoff after a compaction (source compact), or the best one to
three handoffs for this repository and branch, titles and ages only (startup, resume, fork);
silent when nothing matches. Always exits 0: what went wrong is one line on stderr.`,
  flags: {},
  exits: { 0: "always: a hook must never block compaction or the session's end" },
  notes: `Off with HANDOFF_AUTO=0 (or off, false, no), or "auto_handoffs": false in the config file.
The automatic handoffs the hook wrote expire after 7 days (removed, as its own state records
them, when a session's first one is written); 'handoff prune --auto' removes them sooner.`,
});
