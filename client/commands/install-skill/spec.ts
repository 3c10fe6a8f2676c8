import { defineCommand } from "../command.js";

export const installSkillSpec = defineCommand({
  name: "install-skill",
  summary: "Install the handoff skill for Claude Code or Codex, or Cursor's hooks and rule.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Install the handoff skill (SKILL.md, references, body template) for an agent and print every
file written. For Claude Code, the plugin (/plugin install handoff) is the fuller way: it also
wires 'handoff mcp', 'handoff guard' and 'handoff hook'. For Cursor, write its side instead: in
the project's .cursor folder (or --dir D), hooks.json runs 'handoff hook' at preCompact,
sessionEnd and sessionStart (added beside the hooks already there), and rules/handoff.mdc says
how to create and resume handoffs.`,
  flags: {
    agent: {
      type: "string",
      value: "A",
      choices: ["claude-code", "codex", "cursor"],
      description:
        "claude-code (default: into ~/.claude/skills/handoff), codex (into $CODEX_HOME/skills/handoff, default ~/.codex/skills/handoff) or cursor (hooks.json and rules/handoff.mdc in the project's .cursor).",
    },
    dir: {
      type: "string",
      value: "D",
      description: "Install into D/handoff instead (D is a skills folder, e.g. .claude/skills); for cursor, D is the .cursor folder (~/.cursor: every project's hooks).",
    },
    force: { type: "boolean", description: "Replace files that differ from this version (never done silently)." },
  },
  exits: { 0: "installed", 2: "usage (unknown agent, a different version is there without --force, a Cursor hooks.json that is not version 1)", 3: "a write failed" },
});
