import { homedir } from "node:os";
import { type AgentName, AGENTS, installSkill } from "../agent/install-skill.js";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";

export const help = `Usage: handoff install-skill [--agent claude-code|codex] [--dir D] [--force] [--json]

Install the handoff skill (SKILL.md, references, body template) for an agent and print every
file written. For Claude Code, the plugin (/plugin install handoff) is the fuller way: it also
wires 'handoff mcp' and 'handoff guard'.

Options:
  --agent A   claude-code (default: into ~/.claude/skills/handoff) or codex
              (into $CODEX_HOME/skills/handoff, default ~/.codex/skills/handoff).
  --dir D     Install into D/handoff instead (D is a skills folder, e.g. .claude/skills).
  --force     Replace files that differ from this version (never done silently).
  --json      Print {agent, dir, files: [{path, action}], next}.

Exit codes: 0 installed, 2 usage (unknown agent, a different version is there without --force),
3 a write failed.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("install-skill", args, {
    agent: { type: "string" },
    dir: { type: "string" },
    force: { type: "boolean" },
  });
  if (positionals.length > 0) throw new HandoffError("usage", `handoff install-skill takes no arguments, got '${positionals[0]}'`, { hint: "pass --dir D for the folder" });
  const agent = values.agent ?? "claude-code";
  if (!(AGENTS as readonly string[]).includes(agent)) {
    throw new HandoffError("usage", `--agent ${agent} is not supported`, { hint: `pass --agent ${AGENTS.join(" or --agent ")}` });
  }
  const result = installSkill({
    agent: agent as AgentName,
    ...(values.dir === undefined ? {} : { dir: values.dir }),
    force: values.force === true,
    env: io.env,
    home: io.env.HOME ?? homedir(),
    cwd: io.cwd,
  });
  if (values.json) io.out(JSON.stringify(result, null, 2));
  else {
    io.out(result.files.map((file) => `${file.action}: ${file.path}`).join("\n"));
    io.err(`Installed the handoff skill for ${result.agent} in ${result.dir}.\n${result.next}`);
  }
  return EXIT.ok;
}
