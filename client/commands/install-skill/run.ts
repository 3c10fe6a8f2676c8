import { type AgentName, type InstallSkillResult, installSkill } from "../../ops/install-skill/install-skill.js";
import { implement } from "../command.js";
import { oneLine } from "../../platform/terminal.js";
import type { installSkillSpec } from "./spec.js";

export const command = implement<typeof installSkillSpec>()({
  async run({ flags, ctx }): Promise<InstallSkillResult> {
    // The declaration's choices already refused any other --agent.
    return installSkill({
      agent: (flags.agent ?? "claude-code") as AgentName,
      ...(flags.dir === undefined ? {} : { dir: flags.dir }),
      force: flags.force === true,
      env: ctx.env,
      home: ctx.home,
      cwd: ctx.cwd,
    });
  },
  human: (result) => ({
    out: result.files.map((file) => oneLine(`${file.action}: ${file.path}`)).join("\n"),
    err: `${oneLine(result.agent === "cursor" ? `Installed Handoff's hooks and rule for Cursor in ${result.dir}.` : `Installed the handoff skill for ${result.agent} in ${result.dir}.`)}\n${result.next}`,
  }),
  outcome: () => "ok",
});
