import { defineCommand } from "../commands/command.js";

export const hookSpec = defineCommand({
  name: "hook",
  summary: "Act on an agent's lifecycle hook event (stdin): automatic handoffs, start-up pointers.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Reads one hook event as JSON on stdin, as Claude Code, Codex, Gemini CLI, Cursor or VS Code
sends it (the dialect is told from the event itself), and acts by event: before a compaction
(PreCompact, Gemini CLI's PreCompress, Cursor's preCompact), after one (PostCompact) and at the
session's end (SessionEnd, Cursor's sessionEnd, VS Code's Stop) it writes the session's automatic
handoff from its transcript into the managed store, or updates it in place (keyword auto, never
published; none when nothing changed; before compactions at most one every 5 minutes; PostCompact
carries the agent's compact_summary; at the end only the transcript's first 1 MB and last 7 MB are
read, to return within the agents' time budget; for Cursor and VS Code, without a readable
transcript, from the checkout's uncommitted work). At a session's start it prints, as additional
context in the agent's own output shape, a short orientation quoted from that handoff after a
compaction (source compact), or the best one to three handoffs for this repository and branch:
titles, ages and the agent each came from; silent when nothing matches. Events it does not act
on end at once and silently. Always exits 0: what went wrong is one line on stderr.`,
  flags: {},
  exits: { 0: "always: a hook must never block compaction or the session's end" },
  notes: `Off with HANDOFF_AUTO=0 (or off, false, no), or "auto_handoffs": false in the config file.
The automatic handoffs the hook wrote expire after 7 days (removed, as its own state records
them, when a session's first one is written); 'handoff prune --auto' removes them sooner.`,
});
