import { readdirSync, readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Env } from "./env.js";
import { runGitSync } from "./git.js";

/**
 * The work tree root of `dir` as `git rev-parse --show-toplevel` names it (symlinks resolved), or
 * undefined outside a repository. Found the way git's discovery does it (setup.c): from the real
 * folder upwards, the first `.git` that is a repository (a folder, or a file `gitdir: PATH`), not
 * past a filesystem boundary. Spawning git for it costs more than the rest of `handoff validate`
 * (loading node:child_process and the process itself), so git is asked only where its answer
 * could differ from the walk's: an environment that changes discovery, a repository config that
 * moves or removes the work tree (core.worktree, core.bare, an include, an extension: a
 * submodule's gitdir names its core.worktree), a repository someone else owns (git refuses it
 * unless safe.directory says otherwise), a folder on the way that is itself a git directory (a
 * bare repository, or a `.git` folder), or anything the walk does not recognise.
 */
export function workTreeRoot(dir: string, env: Env): string | undefined {
  const found = locateCheckout(dir, env);
  if (found !== "unsure") return found?.toplevel;
  const run = runGitSync(["rev-parse", "--show-toplevel"], { cwd: dir, env, maxBytes: 64 * 1024 });
  const top = run.stdout.trim();
  if (run.code !== 0 || top === "") return undefined;
  try {
    return realpathSync(top);
  } catch {
    return undefined;
  }
}

/** A checkout's folders as `git rev-parse --path-format=absolute --show-toplevel --git-common-dir --git-dir` names them. */
export interface CheckoutPaths {
  toplevel: string;
  /** Where objects, refs and config live: the main worktree's git directory. */
  commonDir: string;
  /** This worktree's own git directory (the common one, outside a linked worktree). */
  gitDir: string;
}

/**
 * `dir`'s checkout as git's discovery finds it, by the walk workTreeRoot describes, without
 * spawning git: undefined outside any repository, "unsure" wherever only git can tell (the caller
 * asks git then).
 */
export function locateCheckout(dir: string, env: Env): CheckoutPaths | undefined | "unsure" {
  const found = GIT_DISCOVERY_ENV.some((name) => env[name] !== undefined) ? UNSURE : walk(dir);
  return found === UNSURE ? "unsure" : found;
}

/** The folder repository-relative paths resolve against: the work tree root of `dir`, else `dir` itself (symlinks resolved). */
export function workTreeRootOrSelf(dir: string, env: Env): string {
  return workTreeRoot(dir, env) ?? realpathSync(dir);
}

/**
 * The main worktree of a linked worktree whose top is `top` (its `.git` is a file naming a git
 * directory whose `commondir` leads to the main `.git`), or undefined for any other folder (a
 * main worktree, a submodule, a bare main repository). Read from the files, without git: the
 * guard asks it on every tool call.
 *
 * @example
 * ```ts
 * mainWorktreeOf("/src/app-feature") // "/src/app" (after `git -C /src/app worktree add ../app-feature`)
 * ```
 */
export function mainWorktreeOf(top: string): string | undefined {
  try {
    const dotGit = join(top, ".git");
    if (!statSync(dotGit).isFile()) return undefined;
    const link = /^gitdir: (.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
    if (link === undefined) return undefined;
    const gitDir = resolve(top, link);
    const common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
    return basename(common) === ".git" ? dirname(common) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The linked worktrees of the main worktree `top`, as its `.git/worktrees/NAME/gitdir` files name
 * them (each holds the path of the linked worktree's `.git` file); [] when there are none.
 */
export function linkedWorktreesOf(top: string): string[] {
  const admin = join(top, ".git", "worktrees");
  let names: string[];
  try {
    names = readdirSync(admin);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    try {
      const dotGit = readFileSync(join(admin, name, "gitdir"), "utf8").trim();
      if (isAbsolute(dotGit)) out.push(dirname(dotGit));
    } catch {
      // A worktree being removed, or not one: nothing to follow.
    }
  }
  return out;
}

/** Variables that change where git looks for a repository, or what it accepts there. */
const GIT_DISCOVERY_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
  "GIT_OBJECT_DIRECTORY",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "SUDO_UID",
];

/** The walk cannot tell what git would answer: ask git. */
const UNSURE = Symbol("unsure");

function walk(dir: string): CheckoutPaths | undefined | typeof UNSURE {
  try {
    return walkFrom(realpathSync(dir));
  } catch {
    return UNSURE;
  }
}

function walkFrom(start: string): CheckoutPaths | undefined | typeof UNSURE {
  const device = statSync(start).dev;
  for (let current = start; ; ) {
    const dotGit = statOrUndefined(join(current, ".git"));
    if (dotGit !== undefined) return dotGit.isDirectory() || dotGit.isFile() ? discovered(current, dotGit) : UNSURE;
    // A folder that is itself a git directory: git takes it as a bare repository (or the inside of `.git`).
    if (statOrUndefined(join(current, "HEAD")) !== undefined) return UNSURE;
    const parent = dirname(current);
    if (parent === current) return undefined;
    const above = statOrUndefined(parent);
    if (above === undefined) return UNSURE;
    // git stops at a filesystem boundary unless GIT_DISCOVERY_ACROSS_FILESYSTEM is set (it is not here).
    if (above.dev !== device) return undefined;
    current = parent;
  }
}

/** `top/.git` exists: `top` and its git folders when git would take it as the work tree, else UNSURE. */
function discovered(top: string, dotGit: Stats): CheckoutPaths | typeof UNSURE {
  try {
    let gitDir = join(top, ".git");
    if (dotGit.isFile()) {
      const link = /^gitdir: (.+?)\s*$/.exec(readFileSync(gitDir, "utf8"));
      if (link?.[1] === undefined) return UNSURE;
      gitDir = isAbsolute(link[1]) ? link[1] : resolve(top, link[1]);
    }
    // A linked worktree's git directory keeps its objects, refs and config in the common one.
    const commonFile = statOrUndefined(join(gitDir, "commondir"));
    const commonDir = commonFile === undefined ? gitDir : resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
    if (!validHead(join(gitDir, "HEAD"))) return UNSURE;
    if (!statOrUndefined(join(commonDir, "objects"))?.isDirectory() || !statOrUndefined(join(commonDir, "refs"))?.isDirectory()) return UNSURE;
    if (!plainConfig(join(commonDir, "config"))) return UNSURE;
    const uid = process.geteuid?.();
    if (uid === undefined || [top, gitDir].some((path) => statSync(path).uid !== uid) || dotGit.uid !== uid) return UNSURE;
    // git names both with symlinks resolved (top is already: the walk starts from the real folder).
    return { toplevel: top, commonDir: realpathSync.native(commonDir), gitDir: realpathSync.native(gitDir) };
  } catch {
    return UNSURE;
  }
}

/** HEAD as git's validate_headref accepts it: a symbolic ref into refs/, or an object id. */
function validHead(path: string): boolean {
  const head = readFileSync(path, "utf8");
  return /^ref:\s*refs\//.test(head) || /^[0-9a-f]{40}(?:[0-9a-f]{24})?\s*$/.test(head);
}

/**
 * A repository config that leaves the work tree where `.git` is: no core.worktree, no core.bare
 * other than false, no include (it could set either), no extension (git refuses one it does not
 * know). Read as text, so a name anywhere (even in a remote's URL) only means asking git.
 */
function plainConfig(path: string): boolean {
  const text = statOrUndefined(path) === undefined ? "" : readFileSync(path, "utf8");
  if (/worktree|include|extensions/i.test(text)) return false;
  return text.split("\n").every((line) => !/^\s*bare\b/i.test(line) || /^\s*bare\s*=\s*false\s*(?:[#;].*)?$/i.test(line));
}

function statOrUndefined(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}
