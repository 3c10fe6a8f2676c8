import { defineCommand } from "../commands/command.js";

export const hookSpec = defineCommand({
  name: "hook",
  summary: "Act on an agent's lifecycle hook event (stdin): automatic handoffs, start-up pointers.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Reads one hook event, as Claude Code or Codex sends it, as JSON on stdin, and acts by event:
PreCompact (manual or auto) and SessionEnd write an automatic handoff of the session from its
transcript into the managed store (keyword auto, never published; at most one per session every
5 minutes, none when nothing changed); SessionStart prints, as the hook's additional context, a
pointer to the handoff written before a compaction (source compact), or the best one to three
handoffs for this repository and branch, titles and ages only (startup, resume); silent when
nothing matches. Always exits 0: what went wrong is one line on stderr. The plugin wires it.`,
  flags: {},
  exits: { 0: "always: a hook must never block compaction or the session's end" },
  notes: `Off with HANDOFF_AUTO=0 (or off, false, no), or "auto_handoffs": false in the config file.
Automatic handoffs expire after 7 days (removed when a session's first one is written);
'handoff prune --auto' removes them sooner.`,
});
