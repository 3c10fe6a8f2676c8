import { existsSync, lstatSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import type { Env } from "../../platform/env.js";
import { osError, replaceFile } from "../../platform/fs.js";
import { workTreeRootOrSelf } from "../../platform/work-tree.js";

/**
 * `handoff install-skill --agent cursor`: Cursor's side of Handoff, in a `.cursor` folder (the
 * project's by default): `hooks.json` (version 1) runs `handoff hook` at `preCompact`,
 * `sessionEnd` and `sessionStart`, added beside whatever hooks are already there; and a rule,
 * `rules/handoff.mdc`, that tells the agent how to create and resume handoffs (the text of
 * instructions/AGENTS.md, which the npm package ships). Cursor runs hook commands from the
 * project's folder (from `~/.cursor` for a user's own hooks); `handoff` is found on PATH.
 */

/** A file an install wrote, or found already right. */
export interface InstalledFile {
  path: string;
  /** `updated`: a file of the user's that Handoff's entries were added to (Cursor's hooks.json). */
  action: "written" | "replaced" | "updated" | "unchanged";
}

/** The events `handoff hook` is registered for, in Cursor's names. */
export const CURSOR_EVENTS = ["preCompact", "sessionEnd", "sessionStart"] as const;
const COMMAND = "handoff hook";
const RULE = join("rules", "handoff.mdc");
const RULE_FRONTMATTER =
  '---\ndescription: "Create or resume a session handoff with the handoff CLI: when the user asks to hand off, save the session for later, or resume from a handoff file, folder or share URL."\nalwaysApply: false\n---\n\n';

export interface CursorInstallOptions {
  /** The `.cursor` folder to install into; the project's (the git top level of cwd) by default. */
  dir?: string;
  force: boolean;
  env: Env;
  cwd: string;
  /** Where the shipped instructions are (tests); found next to the CLI otherwise. */
  instructions?: string;
}

/** The `.cursor` folder an install goes to. */
export function cursorDir(options: Pick<CursorInstallOptions, "dir" | "env" | "cwd">): string {
  return options.dir === undefined ? join(workTreeRootOrSelf(options.cwd, options.env), ".cursor") : resolve(options.cwd, options.dir);
}

/**
 * Adds Handoff's hooks to a Cursor hooks file's text (or to none), keeping every other hook and
 * key as it was: an event that already runs `handoff hook` is left alone. Undefined when nothing
 * needs adding. Throws `usage` for a file that is not a version-1 hooks file: it is not this
 * command's to rewrite.
 *
 * @example
 * ```ts
 * mergeCursorHooks(undefined, "hooks.json")
 * // '{\n  "version": 1,\n  "hooks": {\n    "preCompact": [\n      { "command": "handoff hook" } ...'
 * ```
 */
export function mergeCursorHooks(existing: string | undefined, path: string): string | undefined {
  let file: Record<string, unknown> = { version: 1, hooks: {} };
  if (existing !== undefined) {
    const refuse = (what: string) =>
      new HandoffError("usage", `${path} ${what}; not adding Handoff's hooks to it`, {
        hint: `fix the file (Cursor reads {"version": 1, "hooks": {...}}), or add ${JSON.stringify({ command: COMMAND })} under ${CURSOR_EVENTS.join(", ")} yourself`,
      });
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch {
      throw refuse("is not JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw refuse("is not a JSON object");
    file = parsed as Record<string, unknown>;
    if (file.version !== 1) throw refuse(`has version ${JSON.stringify(file.version)}, not 1`);
    if (file.hooks !== undefined && (typeof file.hooks !== "object" || file.hooks === null || Array.isArray(file.hooks))) throw refuse('has a "hooks" that is not an object');
  }
  const hooks = { ...((file.hooks as Record<string, unknown> | undefined) ?? {}) };
  let added = false;
  for (const event of CURSOR_EVENTS) {
    const entries = hooks[event] ?? [];
    if (!Array.isArray(entries)) throw new HandoffError("usage", `${path}: "hooks.${event}" is not a list; not adding Handoff's hooks to it`, { hint: "fix the file, then run this again" });
    if (entries.some((entry) => typeof entry === "object" && entry !== null && (entry as { command?: unknown }).command === COMMAND)) continue;
    hooks[event] = [...entries, { command: COMMAND }];
    added = true;
  }
  if (!added) return undefined;
  return `${JSON.stringify({ ...file, version: 1, hooks }, null, 2)}\n`;
}

/** The shipped instructions for agents without skills (instructions/AGENTS.md), walking up from this module. */
function shippedInstructions(from: string): string {
  let dir = dirname(from);
  for (let depth = 0; depth < 5; depth++) {
    const candidate = join(dir, "instructions", "AGENTS.md");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new HandoffError("internal", "the handoff instructions are not shipped next to this CLI (instructions/AGENTS.md is missing)", {
    hint: "reinstall the handoff package; its 'files' must include instructions/AGENTS.md",
  });
}

/** Cursor's rule: the instructions for agents without skills, behind the rule's frontmatter. */
export function cursorRule(instructions: string): string {
  return `${RULE_FRONTMATTER}${instructions}`;
}

/**
 * Writes the hooks and the rule. Decides before writing: a rule that differs from this CLI's is
 * replaced only with `force`, and then nothing else was written first.
 */
export function installCursor(options: CursorInstallOptions, moduleFile: string): { dir: string; files: InstalledFile[] } {
  const dir = cursorDir(options);
  const hooksPath = join(dir, "hooks.json");
  const rulePath = join(dir, RULE);
  for (const path of [dir, hooksPath, dirname(rulePath), rulePath]) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new HandoffError("unsafe_store", `${path} is a symlink; not installing through it`, { hint: "replace the symlink with a real folder or file, or pass --dir D" });
    }
  }
  const hooksText = readIfFile(hooksPath);
  const merged = mergeCursorHooks(hooksText, hooksPath);
  const rule = cursorRule(readFileSync(options.instructions ?? shippedInstructions(moduleFile), "utf8"));
  const ruleText = readIfFile(rulePath);
  const ruleAction: InstalledFile["action"] = ruleText === undefined ? "written" : ruleText === rule ? "unchanged" : "replaced";
  if (ruleAction === "replaced" && !options.force) {
    throw new HandoffError("usage", `${rulePath} already holds a different version of the rule`, { hint: "pass --force to replace it with this CLI's version, or --dir D to install elsewhere" });
  }
  try {
    mkdirSync(dirname(rulePath), { recursive: true, mode: 0o755 });
  } catch (cause) {
    throw osError(`cannot create ${dirname(rulePath)}`, cause, "check that the folder is writable, or pass --dir D");
  }
  if (merged !== undefined) replaceFile(hooksPath, merged, 0o644);
  if (ruleAction !== "unchanged") replaceFile(rulePath, rule, 0o644);
  return {
    dir,
    files: [
      { path: hooksPath, action: merged === undefined ? "unchanged" : hooksText === undefined ? "written" : "updated" },
      { path: rulePath, action: ruleAction },
    ],
  };
}

function readIfFile(path: string): string | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (!stat.isFile()) throw new HandoffError("usage", `${path} exists and is not a file; not touching it`, { hint: "move it away, or pass --dir D to install elsewhere" });
  return readFileSync(path, "utf8");
}
