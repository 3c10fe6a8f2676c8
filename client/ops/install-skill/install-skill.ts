import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HandoffError } from "../../../shared/errors.js";
import type { Env } from "../../platform/env.js";
import { createFile, osError, replaceFile } from "../../platform/fs.js";
import { type InstalledFile, installCursor } from "./cursor.js";

/**
 * `handoff install-skill`: copies the shipped skill folder (plugin/skills/handoff/) to where an agent
 * looks for skills; for Cursor, which has no skills folder of its own here, writes its hooks and a
 * rule instead (cursor.ts). Nothing the user wrote is lost: a file that already exists with other
 * contents is only replaced with --force, and then through a rename, never a partial write.
 */

export const AGENTS = ["claude-code", "codex", "cursor"] as const;
export type AgentName = (typeof AGENTS)[number];

export interface InstallSkillOptions {
  agent: AgentName;
  /** The skills folder to install into; the skill lands in `<dir>/handoff/` (Cursor: the `.cursor` folder). */
  dir?: string;
  force: boolean;
  env: Env;
  home: string;
  cwd: string;
  /** Where the shipped skill is (tests); found next to the CLI otherwise. */
  source?: string;
}

export type { InstalledFile } from "./cursor.js";

export interface InstallSkillResult {
  agent: AgentName;
  /** The installed skill folder. */
  dir: string;
  files: InstalledFile[];
  /** How the agent picks it up. */
  next: string;
}

/** The default skills folder per agent: Claude Code's personal skills, Codex's $CODEX_HOME/skills. */
export function defaultSkillsDir(agent: Exclude<AgentName, "cursor">, env: Env, home: string): string {
  if (agent === "codex") return join(env.CODEX_HOME ?? join(home, ".codex"), "skills");
  return join(env.CLAUDE_CONFIG_DIR ?? join(home, ".claude"), "skills");
}

/**
 * The shipped skill folder: the first `plugin/skills/handoff/SKILL.md` walking up from this module
 * (the bundle sits in dist/commands/, the source in client/ops/install-skill/). The skill lives in
 * the plugin's folder, which a plugin install copies alone; the npm package ships that folder too.
 */
export function shippedSkillDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (let depth = 0; depth < 5; depth++) {
    const candidate = join(dir, "plugin", "skills", "handoff");
    if (existsSync(join(candidate, "SKILL.md"))) return candidate;
    dir = dirname(dir);
  }
  throw new HandoffError("internal", "the handoff skill is not shipped next to this CLI (plugin/skills/handoff/SKILL.md is missing)", {
    hint: "reinstall the handoff package; its 'files' must include plugin/skills/",
  });
}

/**
 * The skill folder and everything the install writes in it must be what they seem: a symlink there
 * (the folder, a subfolder, a file) would send the write wherever it points. The skills folder
 * above may be a symlink (dotfiles often are); the `handoff` folder in it may not.
 */
function refuseSymlinks(target: string, files: string[]): void {
  const paths = new Set([target]);
  for (const rel of files) {
    for (let path = join(target, rel); path !== target && path.startsWith(target); path = dirname(path)) paths.add(path);
  }
  for (const path of paths) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new HandoffError("unsafe_store", `${path} is a symlink; not installing through it`, {
        hint: "remove the symlink (or replace it with a real folder), or pass --dir D to install elsewhere",
      });
    }
  }
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listFiles(root, path);
      return entry.isFile() ? [relative(root, path)] : [];
    })
    .sort();
}

export function installSkill(options: InstallSkillOptions): InstallSkillResult {
  if (options.agent === "cursor") {
    const installed = installCursor({ ...(options.dir === undefined ? {} : { dir: options.dir }), force: options.force, env: options.env, cwd: options.cwd }, fileURLToPath(import.meta.url));
    return {
      agent: "cursor",
      ...installed,
      next: `Cursor reads ${installed.dir}/hooks.json and its rules in new agent sessions (restart Cursor if hooks do not run); the MCP server goes in .cursor/mcp.json (docs/agents.md).`,
    };
  }
  const source = options.source ?? shippedSkillDir();
  const agent = options.agent;
  const skillsDir = options.dir === undefined ? defaultSkillsDir(agent, options.env, options.home) : resolve(options.cwd, options.dir);
  const target = join(skillsDir, "handoff");
  const files = listFiles(source);
  refuseSymlinks(target, files);
  const plan = files.map((rel) => {
    const bytes = readFileSync(join(source, rel));
    const path = join(target, rel);
    const existing = statSync(path, { throwIfNoEntry: false });
    if (existing && !existing.isFile()) {
      throw new HandoffError("usage", `${path} exists and is not a file; not touching it`, { hint: "move it away, or pass --dir D to install elsewhere" });
    }
    const same = existing !== undefined && readFileSync(path).equals(bytes);
    return { path, bytes, action: (existing === undefined ? "written" : same ? "unchanged" : "replaced") as InstalledFile["action"] };
  });
  // Decide before writing anything: a refusal leaves the folder exactly as it was.
  const conflicts = plan.filter((file) => file.action === "replaced");
  if (conflicts.length > 0 && !options.force) {
    throw new HandoffError("usage", `${target} already holds a different version of the skill (${conflicts.map((f) => relative(target, f.path)).join(", ")})`, {
      hint: "pass --force to replace those files with this CLI's version, or --dir D to install elsewhere",
      details: { files: conflicts.map((f) => f.path) },
    });
  }
  for (const file of plan) {
    if (file.action === "unchanged") continue;
    try {
      mkdirSync(dirname(file.path), { recursive: true, mode: 0o755 });
    } catch (cause) {
      throw osError(`cannot create ${dirname(file.path)}`, cause, "check that the folder is writable, or pass --dir D");
    }
    if (file.action === "replaced") replaceFile(file.path, file.bytes, 0o644);
    else if (createFile(file.path, file.bytes, 0o644) === "exists") {
      throw new HandoffError("io_failed", `${file.path} appeared while the skill was being installed; not overwriting it`, { hint: "run the command again" });
    }
  }
  return {
    agent,
    dir: target,
    files: plan.map(({ path, action }) => ({ path, action })),
    next:
      agent === "codex"
        ? "Codex loads skills from this folder at start-up; restart it. For agents without skills, copy instructions/AGENTS.md from the Handoff repository into your AGENTS.md."
        : "Claude Code loads it in new sessions; invoke it with /handoff. The plugin (/plugin marketplace add, /plugin install handoff) also wires 'handoff mcp', 'handoff guard' and 'handoff hook'.",
  };
}
