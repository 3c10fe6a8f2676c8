import { type BoundCommand, bind } from "../commands/command.js";
import { checkpointSpec } from "../commands/checkpoint/spec.js";
import { configSpec } from "../commands/config/spec.js";
import { contextSpec } from "../commands/context/spec.js";
import { createSpec } from "../commands/create/spec.js";
import { guardSpec } from "../commands/guard/spec.js";
import { installSkillSpec } from "../commands/install-skill/spec.js";
import { listSpec } from "../commands/list/spec.js";
import { pruneSpec } from "../commands/prune/spec.js";
import { publishSpec } from "../commands/publish/spec.js";
import { publishedSpec } from "../commands/published/spec.js";
import { renderSpec } from "../commands/render/spec.js";
import { resumeSpec } from "../commands/resume/spec.js";
import { revokeSpec } from "../commands/revoke/spec.js";
import { rmSpec } from "../commands/rm/spec.js";
import { scanSpec } from "../commands/scan/spec.js";
import { showSpec } from "../commands/show/spec.js";
import { teamSpec } from "../commands/team/spec.js";
import { validateSpec } from "../commands/validate/spec.js";
import { mcpSpec } from "../mcp/spec.js";
import { completionSpec } from "./completion-spec.js";

/**
 * Every command in the order `handoff --help` lists them: its declaration (commands/<name>/spec.ts)
 * bound to a lazy loader of its code (commands/<name>/run.ts). `--help`, docs/cli.md's flag tables
 * and completion read the declarations; nothing here loads a command's code until it runs.
 * `mcp` and `completion` are the front ends' own: the MCP server, and completion of this list.
 */
export const COMMANDS: readonly BoundCommand[] = [
  bind(createSpec, () => import("../commands/create/run.js")),
  bind(resumeSpec, () => import("../commands/resume/run.js")),
  bind(showSpec, () => import("../commands/show/run.js")),
  bind(listSpec, () => import("../commands/list/run.js")),
  bind(rmSpec, () => import("../commands/rm/run.js")),
  bind(pruneSpec, () => import("../commands/prune/run.js")),
  bind(publishSpec, () => import("../commands/publish/run.js")),
  bind(revokeSpec, () => import("../commands/revoke/run.js")),
  bind(publishedSpec, () => import("../commands/published/run.js")),
  bind(teamSpec, () => import("../commands/team/run.js")),
  bind(validateSpec, () => import("../commands/validate/run.js")),
  bind(renderSpec, () => import("../commands/render/run.js")),
  bind(scanSpec, () => import("../commands/scan/run.js")),
  bind(contextSpec, () => import("../commands/context/run.js")),
  bind(guardSpec, () => import("../commands/guard/run.js")),
  bind(checkpointSpec, () => import("../commands/checkpoint/run.js")),
  bind(mcpSpec, () => import("../mcp/command.js")),
  bind(installSkillSpec, () => import("../commands/install-skill/run.js")),
  bind(configSpec, () => import("../commands/config/run.js")),
  bind(completionSpec, () => import("./completion.js").then((m) => ({ command: m.completionFor(COMMANDS.map((c) => c.spec)) }))),
];

/** The command a body on stdin with only flags (or nothing) runs. */
export const DEFAULT_COMMAND = COMMANDS[0]!;

