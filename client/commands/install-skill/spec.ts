import { defineCommand } from "../command.js";

export const installSkillSpec = defineCommand({
  name: "install-skill",
  summary: "Install the handoff skill for Claude Code or Codex.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Install the handoff skill (SKILL.md, references, body template) for an agent and print every
file written. For Claude Code, the plugin (/plugin install handoff) is the fuller way: it also
wires 'handoff mcp' and 'handoff guard'.`,
  flags: {
    agent: {
      type: "string",
      value: "A",
      choices: ["claude-code", "codex"],
      description: "claude-code (default: into ~/.claude/skills/handoff) or codex (into $CODEX_HOME/skills/handoff, default ~/.codex/skills/handoff).",
    },
    dir: { type: "string", value: "D", description: "Install into D/handoff instead (D is a skills folder, e.g. .claude/skills)." },
    force: { type: "boolean", description: "Replace files that differ from this version (never done silently)." },
  },
  exits: { 0: "installed", 2: "usage (unknown agent, a different version is there without --force)", 3: "a write failed" },
});
