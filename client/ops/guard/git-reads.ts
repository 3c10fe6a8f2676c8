import { statSync } from "node:fs";
import { isAbsolute, join, normalize, relative } from "node:path";
import type { Env } from "../../platform/env.js";
import { runGitSync } from "../../platform/git.js";
import { locateCheckout } from "../../platform/work-tree.js";
import { type Effect, effectsOf, type GitInvocation, isBuiltin, parseGit } from "./git-table.js";
import { COMMAND_SETTINGS } from "./git-words.js";
import { COMPUTED, type Field } from "./shell-expand.js";
import { parseShell } from "./shell-parse.js";
import { type Read, readsOfCommand } from "./shell-reads.js";

/**
 * What a git command line would print, as paths: its Effects (git-table.ts) resolved by asking
 * git itself, read-only, through the one runner (platform/git.ts: safe config, no stdin, capped
 * output and time). Pathspecs are passed to git as written, so git's own pathspec magic (`:!`,
 * `:(exclude)`, `:(glob)`, `:(icase)`, `:(top)`, `:/`) and its rev-or-path rules decide what
 * matches, against the index, the named trees and the history. Only under an active manifest.
 */

export interface GitVerdict {
  /** Set when the command is refused outright, with why. */
  refused?: string;
  /** Further reads to judge (files git reads, command lines it runs). */
  reads: Read[];
  /** Paths the command can print, relative to a work tree's top. */
  prints: { top: string; names: string[]; via: string }[];
}

export interface GitContext {
  env: Env;
  home: string | undefined;
  /** A shell glob's matches (bash expands it before git runs), undefined past the budget. */
  expandGlob(pattern: string): string[] | undefined;
}

/** git's empty tree, in SHA-1 and SHA-256 repositories: diffing a tree against it lists every path in it. */
const EMPTY_TREES = ["4b825dc642cb6eb9a060e54bf8d69288fbee4904", "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"];
/** Output cap for the listings: past it the command is blocked (too much to check). */
const LISTING_BYTES = 32 * 1024 * 1024;
/** Revisions that are always commits: no type check needed. */
const COMMIT_REVS = /^(?:HEAD|@)(?:[~^]\d*)*$/;

export function resolveGit(read: Extract<Read, { kind: "git" }>, context: GitContext): GitVerdict {
  const verdict: GitVerdict = { reads: [], prints: [] };
  const words = wordsOf(read, context);
  if (typeof words === "string") return { ...verdict, refused: words };
  let invocation = parseGit(words, read.cwd, read.env);
  if (typeof invocation === "string") return { ...verdict, refused: invocation };
  for (let hops = 0; ; hops++) {
    const settings = judgeSettings(invocation, context, verdict);
    if (settings) return { ...verdict, refused: settings };
    if (isBuiltin(invocation.sub)) break;
    if (hops > 8) return { ...verdict, refused: `git aliases expand more than 8 times ('${invocation.sub}')` };
    const alias = aliasOf(invocation, context.env);
    if (alias === undefined) {
      return {
        ...verdict,
        refused: `'git ${invocation.sub}' is neither a git command nor an alias git has now (one defined earlier in the same command line, or an external git-${invocation.sub} program, could print anything)`,
      };
    }
    if (alias.startsWith("!")) return { ...verdict, refused: `'git ${invocation.sub}' is a shell alias ('${alias.slice(0, 60)}'), which runs any command; not while sealed` };
    const expanded = aliasWords(alias);
    invocation = { ...invocation, sub: expanded[0] ?? "", words: [...expanded.slice(1), ...invocation.words] };
  }
  const dir = invocation.dir;
  const effects = effectsOf(invocation, (word) => dir !== undefined && !word.includes(COMPUTED) && statSync(isAbsolute(word) ? word : join(dir, word), { throwIfNoEntry: false }) !== undefined);
  const contentful = effects.filter((effect) => effect.kind !== "none");
  if (contentful.length === 0) return verdict;
  if (dir === undefined) return { ...verdict, refused: `'git ${invocation.sub}' runs in a folder only run time knows, and can print file contents` };
  if (invocation.words.some((word) => word.includes(COMPUTED)) && contentful.some((effect) => effect.kind !== "files" && effect.kind !== "run")) {
    return { ...verdict, refused: `'git ${invocation.sub}' is given a word computed at run time, so the guard cannot tell what it prints` };
  }
  const git = new GitAsker(invocation, dir, context.env);
  for (const effect of contentful) {
    const refused = applyEffect(effect, invocation, git, verdict, context);
    if (refused) return { ...verdict, refused };
  }
  return verdict;
}

/** Bash expands the words first: globs against the tree (relative ones from git's folder). */
function wordsOf(read: Extract<Read, { kind: "git" }>, context: GitContext): string[] | string {
  const out: string[] = [];
  for (const field of read.args) out.push(...globWords(field, read.cwd, context));
  const over = out.find((word) => word === OVER);
  return over === undefined ? out : "a glob in the git command matches more entries than the guard reads";
}

const OVER = "\u0001over";

function globWords(field: Field, cwd: string | undefined, context: GitContext): string[] {
  if (field.glob === undefined || cwd === undefined) return [field.text];
  const absolute = isAbsolute(field.glob) ? field.glob : join(cwd, field.glob);
  const matches = context.expandGlob(absolute);
  if (matches === undefined) return [OVER];
  if (matches.length === 0) return [field.text];
  return matches.map((match) => (isAbsolute(field.glob!) ? match : relative(cwd, match)));
}

/** `-c` settings: a shell alias and an include are refused; a program setting's command line is judged. */
function judgeSettings(invocation: GitInvocation, context: GitContext, verdict: GitVerdict): string | undefined {
  for (const { key, value } of invocation.configs) {
    if (key.startsWith("alias.") && value.startsWith("!")) return `'git -c ${key}=...' defines a shell alias, which runs any command; not while sealed`;
    if (!COMMAND_SETTINGS.test(key)) continue;
    if (value.includes(COMPUTED) || /^include/.test(key)) return `'git -c ${key}' takes a program or a file only run time knows; not while sealed`;
    verdict.reads.push(...readsOfCommand(value, { cwd: invocation.dir ?? "/", home: context.home }));
  }
  return undefined;
}

/** An alias's value: from `-c alias.NAME=...` (the last one), else the configuration git would read. */
function aliasOf(invocation: GitInvocation, env: Env): string | undefined {
  const key = `alias.${invocation.sub.toLowerCase()}`;
  const given = invocation.configs.filter((setting) => setting.key === key).at(-1);
  if (given) return given.value;
  if (invocation.dir === undefined) return undefined;
  const run = runGitSync([...invocation.globals, "config", "--get", key], { cwd: invocation.dir, env, maxBytes: 64 * 1024 });
  return run.code === 0 ? run.stdout.replace(/\n$/, "") : undefined;
}

/** An alias value's words, split as git splits them (shell-like quoting). */
function aliasWords(value: string): string[] {
  const command = parseShell(value).commands[0];
  if (command?.kind !== "simple") return [];
  return command.words.map((word) => word.map((part) => (part.kind === "text" ? part.text : "")).join(""));
}

function applyEffect(effect: Effect, invocation: GitInvocation, git: GitAsker, verdict: GitVerdict, context: GitContext): string | undefined {
  const via = `'git ${invocation.sub}'`;
  switch (effect.kind) {
    case "none":
      return undefined;
    case "refuse":
      return effect.reason;
    case "files":
      for (const path of effect.paths) verdict.reads.push({ kind: "tree", path: normalize(isAbsolute(path) ? path : join(git.dir, path)), via: `${via} reads '${path}'` });
      return undefined;
    case "run":
      verdict.reads.push(...readsOfCommand(effect.command, { cwd: git.dir, home: context.home }));
      return undefined;
    case "copy": {
      const path = normalize(isAbsolute(effect.repository) ? effect.repository : join(git.dir, effect.repository));
      verdict.reads.push({ kind: "tree", path, via: effect.what, copy: true });
      return undefined;
    }
    case "diff": {
      const at = effect.command[0] === "stash" ? 2 : 1;
      const head = effect.command.slice(0, at);
      const rest = effect.command.slice(at);
      const names = ["--name-only", "-z", "--no-renames", ...(head[0] === "diff" ? ["--no-ext-diff", "--no-relative"] : [])];
      return git.list([...head, ...names, ...rest, "--", ...effect.pathspecs], via, verdict);
    }
    case "history": {
      const renames = effect.follow ? ["--follow"] : ["--no-renames"];
      return git.list(["log", "--format=", "--name-only", "-z", "-m", ...renames, ...effect.revs, "--", ...effect.pathspecs], via, verdict);
    }
    case "show":
      for (const rev of effect.revs) {
        const type = COMMIT_REVS.test(rev) ? "commit" : git.type(rev);
        if (type === undefined) return `${via} is given '${rev}', which git cannot name; the guard cannot tell what it prints`;
        if (type === "blob") return blobRefusal(via, rev);
        if (type === "tree" || effect.namesOnly) continue;
        const failure = git.list(["diff-tree", "-r", "-m", "--root", "--no-commit-id", "--name-only", "-z", "--no-renames", `${rev}^{commit}`, "--", ...effect.pathspecs], via, verdict);
        if (failure) return failure;
      }
      return undefined;
    case "objects":
      for (const name of effect.names) {
        const colon = revColon(name);
        if (colon >= 0) {
          const path = name.slice(colon + 1);
          const top = git.top();
          const relativeToCwd = path.startsWith("./") || path.startsWith("../");
          const absolute = normalize(relativeToCwd ? join(git.dir, path) : join(top ?? git.dir, path));
          verdict.reads.push({ kind: "path", path: absolute, via: `${via} prints '${name}'` });
          continue;
        }
        const type = git.type(name);
        if (type === undefined) return `${via} is given '${name}', which git cannot name; the guard cannot tell what it prints`;
        if (type === "blob") return blobRefusal(via, name);
      }
      return undefined;
    case "tree": {
      const colon = revColon(effect.treeish);
      const sub = colon >= 0 ? effect.treeish.slice(colon + 1).replace(/^\/+|\/+$/g, "") : "";
      const pathspecs = colon >= 0 ? [] : effect.pathspecs;
      let failure: string | undefined;
      for (const empty of EMPTY_TREES) {
        failure = git.list(["diff", "--name-only", "-z", "--no-renames", "--no-relative", empty, effect.treeish, "--", ...pathspecs], via, verdict, sub);
        if (failure === undefined) return undefined;
      }
      return failure;
    }
    case "index": {
      const runs = [["ls-files", "-z", "--full-name", "--cached"]];
      if (effect.others !== "none") runs.push(["ls-files", "-z", "--full-name", "--others", ...(effect.others === "untracked" ? ["--exclude-standard"] : [])]);
      for (const run of runs) {
        const failure = git.list([...run, "--", ...effect.pathspecs], via, verdict);
        if (failure) return failure;
      }
      return undefined;
    }
  }
}

function blobRefusal(via: string, rev: string): string {
  return `${via} prints the blob '${rev}' by its id, and the guard cannot tell which path it is; show it as REV:PATH`;
}

/** Where the `:` of `REV:PATH` (or `:PATH`, `:N:PATH`) is; -1 for a plain revision. */
function revColon(name: string): number {
  const stage = /^:[0-3]:/.exec(name);
  if (stage) return stage[0].length - 1;
  return name.indexOf(":");
}

/** git, asked read-only in the command's own repository (its globals: `--git-dir`, `--work-tree`, pathspec modes). */
class GitAsker {
  private toplevel: string | undefined | null = null;

  constructor(
    private readonly invocation: GitInvocation,
    readonly dir: string,
    private readonly env: Env,
  ) {}

  /** The work tree's top (where listed paths are relative to), or undefined for a bare repository. */
  top(): string | undefined {
    if (this.toplevel !== null) return this.toplevel;
    const walked = this.invocation.globals.some((global) => global.startsWith("--git-dir") || global.startsWith("--work-tree")) ? "unsure" : locateCheckout(this.dir, this.env);
    if (walked !== "unsure") this.toplevel = walked?.toplevel;
    else {
      const run = runGitSync([...this.invocation.globals, "rev-parse", "--show-toplevel"], { cwd: this.dir, env: this.env, maxBytes: 64 * 1024 });
      this.toplevel = run.code === 0 && run.stdout.trim() !== "" ? run.stdout.trim() : undefined;
    }
    return this.toplevel;
  }

  type(rev: string): string | undefined {
    const run = runGitSync([...this.invocation.globals, "cat-file", "-t", rev], { cwd: this.dir, env: this.env, maxBytes: 64 * 1024 });
    return run.code === 0 ? run.stdout.trim() : undefined;
  }

  /** Runs a listing (NUL-separated paths) and records what it printed; a failure says why. */
  list(args: string[], via: string, verdict: GitVerdict, prefix = ""): string | undefined {
    const run = runGitSync([...this.invocation.globals, ...args], { cwd: this.dir, env: this.env, maxBytes: LISTING_BYTES });
    if (run.code !== 0)
      return `${via}: git could not list what it would print (${run.overflow ? "more than the guard reads" : (run.failure ?? `exit ${run.code}`)}); the guard blocks what it cannot check`;
    const names = [...new Set(run.stdout.split("\0").filter(Boolean))].map((name) => (prefix ? `${prefix}/${name}` : name));
    if (names.length > 0) verdict.prints.push({ top: this.top() ?? this.dir, names, via: `${via} can print` });
    return undefined;
  }
}

/** The folder a git read belongs to (the repository whose manifest judges it), or undefined. */
export function gitAnchor(read: Extract<Read, { kind: "git" }>): string | undefined {
  const words = read.args.map((field) => field.text);
  const invocation = parseGit(words, read.cwd, read.env);
  if (typeof invocation === "string") return read.cwd;
  return invocation.workTree ?? invocation.gitDir ?? invocation.dir;
}
