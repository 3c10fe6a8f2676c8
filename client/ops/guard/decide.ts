import { realpathSync } from "node:fs";
import { basename, isAbsolute, join, normalize, sep } from "node:path";
import { matchGlob } from "../../../shared/repo/glob.js";
import { expandBraces, MAX_BRACE_WORDS, parseCommand, pathWords } from "./bash-words.js";
import { fnmatchcase } from "./fnmatch.js";
import { type ActivePointer, type GuardMode, isFolder } from "../../lib/guard-state.js";
import { partialRealpath, repoRelative } from "../../platform/paths.js";

/**
 * The guard's decision for one PreToolUse event, as the reference guard decides it:
 *   sealed:   block a path matching context.forbidden (and a search whose scope may reach one)
 *   bounded:  allow; what is not on the manifest's allowlist is recorded in the ledger
 *   advisory: allow
 * Where this is stricter than the reference (Bash, a Glob's base folder, `*.pem` globs also
 * matched segment-wise), docs/agents.md lists it. The caller does the I/O (ledger, exit code).
 */

export interface HookEvent {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
}

export interface GuardDecision {
  action: "allow" | "block" | "ledger";
  mode: GuardMode;
  tool: string;
  /** Why a block (or, in bounded mode, what would have been blocked in sealed mode). */
  reason?: string;
  /** What was accessed, repository-relative when inside it; `a|b` when a symlink leads elsewhere. */
  targets: string[];
}

export interface DecideContext {
  /** The root whose _meta/ holds the pointer, symlinks resolved. */
  root: string;
  /** The folder relative tool paths resolve against (the event's cwd). */
  cwd: string;
  home: string | undefined;
}

type Blocked = { action: "block"; reason: string; targets: string[] };
type Policy = Blocked | { action: "allow"; targets: string[] };

export function decide(pointer: ActivePointer, event: HookEvent, context: DecideContext): GuardDecision {
  const tool = typeof event.tool_name === "string" ? event.tool_name : "";
  if (pointer.mode === "advisory") return { action: "allow", mode: "advisory", tool, targets: [] };
  const input = typeof event.tool_input === "object" && event.tool_input !== null ? (event.tool_input as Record<string, unknown>) : {};
  const policy = new PathPolicy(pointer.forbidden, context).evaluate(tool, input);
  if (pointer.mode === "sealed") {
    return policy.action === "block" ? { action: "block", mode: "sealed", tool, reason: policy.reason, targets: policy.targets } : { action: "allow", mode: "sealed", tool, targets: policy.targets };
  }
  // Bounded: what the manifest selected is accounted for already; everything else is ledgered.
  const allowlist = new Set(pointer.allowlist.map((path) => path.replace(/\\/g, "/").replace(/^(\.\/)+/, "")));
  const beyond = policy.targets.filter((target) => !target.split("|").some((part) => allowlist.has(part)));
  if (beyond.length === 0) return { action: "allow", mode: "bounded", tool, targets: policy.targets };
  return { action: "ledger", mode: "bounded", tool, targets: beyond, ...(policy.action === "block" ? { reason: policy.reason } : {}) };
}

/** Search commands that read a whole folder tree: naming a folder means reading what is under it. */
const RECURSIVE_COMMANDS = new Set(["rg", "ag", "ack", "find", "fd", "tree", "du", "tar", "zip", "rsync"]);
/** Commands that recurse only with a flag, and that flag (`ls -r` reverses; `ls -R` recurses). */
const RECURSIVE_FLAGS: Record<string, RegExp> = {
  grep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$/,
  egrep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)$/,
  fgrep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)$/,
  ls: /^(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)$/,
  cp: /^(?:-[a-zA-Z]*[rRa][a-zA-Z]*|--recursive|--archive)$/,
  scp: /^-[a-zA-Z]*r[a-zA-Z]*$/,
  zip: /^-[a-zA-Z]*r[a-zA-Z]*$/,
};

/** Shells whose `-c` string and here-documents are judged as commands. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish"]);
/** Interpreters whose code strings are scanned for literal paths. */
const INTERPRETERS = /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*|lua[0-9.]*|tclsh|Rscript|osascript|awk|gawk|mawk|nawk|jq|sqlite3|psql|mysql)$/;
/** The path-like runs of a code string: what is between quotes, brackets, commas and operators. */
const CODE_TOKENS = /[^\s'"`(),;=<>|&{}+]+/g;
/** How deep `bash -c "sh -c '...'"` is followed before the guard gives up (and blocks). */
const MAX_NESTING = 4;
/** git diff/show flags that print names or counts, never contents. */
const NAMES_ONLY = new Set(["--stat", "--name-only", "--name-status", "--shortstat", "--numstat", "--summary", "--dirstat", "--raw", "-s", "--no-patch", "--quiet", "--exit-code"]);

class PathPolicy {
  constructor(
    private readonly forbidden: readonly string[],
    private readonly context: DecideContext,
  ) {
    this.cwd = context.cwd;
  }

  evaluate(tool: string, input: Record<string, unknown>): Policy {
    const text = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : "");
    if (tool === "Grep") {
      const scope = text("path");
      if (scope === "") {
        if (this.forbidden.length > 0) return { action: "block", reason: "pathless Grep may scan forbidden context", targets: ["Grep:workspace"] };
        return this.allow(["Grep:workspace"]);
      }
      const targets = [this.relpath(scope)];
      const glob = this.scopeReaches(scope);
      return glob ? { action: "block", reason: `Grep scope '${scope}' may scan forbidden glob '${glob}'`, targets } : this.allow(targets);
    }
    if (tool === "Glob") {
      const pattern = text("pattern");
      const base = text("path");
      // The folder the pattern starts from: its leading literal segments, under `path` if given.
      const scope = joinScope(base, fixedPrefix(pattern));
      const glob = this.scopeReaches(scope) ?? this.patternReaches(base === "" ? pattern : join(base, pattern));
      const targets = [pattern];
      return glob ? { action: "block", reason: `Glob pattern '${pattern}'${base ? ` in '${base}'` : ""} may enumerate forbidden glob '${glob}'`, targets } : this.allow(targets);
    }
    if (tool === "Bash") return this.bash(text("command"));
    // Handoff's own MCP tools (the plugin's hook matches mcp__handoff__.*): the path each one reads, sends or writes.
    const raw = text("file_path") || text("path") || text("notebook_path") || text("pattern") || (tool.startsWith("mcp__") ? text("source") || text("to") || text("manifest") || text("from") : "");
    if (raw === "") return this.allow([]);
    const target = this.relpath(raw);
    const glob = this.matches(target);
    return glob ? { action: "block", reason: `'${raw}' matches forbidden glob '${glob}'`, targets: [target] } : this.allow([target]);
  }

  /** Where relative words resolve: the event's cwd, moved by `cd` inside the command. */
  private cwd: string;

  private bash(command: string, depth = 0): Policy {
    if (depth > MAX_NESTING) return { action: "block", reason: `the command nests shells more than ${MAX_NESTING} deep; the guard cannot follow it`, targets: [] };
    const targets: string[] = [];
    for (const segment of parseCommand(command)) {
      const words: string[] = [];
      for (const raw of segment.words) {
        const expanded = expandBraces(raw);
        if (expanded === undefined) return { action: "block", reason: `the brace expression in '${raw.slice(0, 80)}' expands to more than ${MAX_BRACE_WORDS} words`, targets: [] };
        words.push(...expanded);
      }
      const at = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
      const program = at < 0 ? "" : basename(words[at]!);
      const args = pathWords(words.slice(at + 1));
      // A program named by path (`./secrets/run.sh`) is read to run it.
      const named = at >= 0 && words[at]!.includes("/") ? [words[at]!, ...args] : args;
      for (const word of named) {
        const verdict = this.word(word);
        if (verdict.action === "block") return verdict;
        targets.push(...verdict.targets);
      }
      const nested = this.nested(words, segment.heredocs, depth);
      if (nested) {
        if (nested.action === "block") return nested;
        targets.push(...nested.targets);
      }
      if (program === "git") {
        const read = this.gitRead(words.slice(at + 1));
        if (read) return read;
      }
      const flag = RECURSIVE_FLAGS[program];
      const recursive = RECURSIVE_COMMANDS.has(program) || (program === "git" && words.includes("grep")) || (flag !== undefined && words.some((word) => flag.test(word)));
      if (recursive) {
        const folders = args.filter((word) => isFolder(this.absolute(word)));
        for (const folder of folders.length > 0 ? folders : ["."]) {
          const glob = this.scopeReaches(folder);
          if (glob) return { action: "block", reason: `'${program}' reads everything under '${folder}', which may include forbidden glob '${glob}'`, targets: [this.relpath(folder)] };
        }
      }
      if ((program === "cd" || program === "pushd") && args.length <= 1) this.cwd = this.absolute(args[0] ?? "~");
    }
    return this.allow([...new Set(targets)]);
  }

  /** One word a command names: blocked when it is, or (as a shell glob) may reach, a forbidden path. */
  private word(word: string): Policy {
    const target = this.relpath(word);
    const glob = /[*?[]/.test(word) ? (this.matches(target) ?? this.patternReaches(word)) : this.matches(target);
    if (glob) return { action: "block", reason: `the command names '${word}', which matches forbidden glob '${glob}'`, targets: [target] };
    // `HEAD:secrets/x` (git's rev:path) reads that path, relative to the repository's root or, with `./`, to cwd.
    const colon = word.indexOf(":");
    if (colon >= 0 && colon < word.length - 1 && !word.includes("://")) {
      const path = word.slice(colon + 1).replace(/^\//, "");
      const fromRoot = path.startsWith("./") || path.startsWith("../") ? this.relpath(path) : this.fromRoot(join(this.context.root, path));
      const revGlob = this.matches(fromRoot) ?? this.matches(this.relpath(path));
      if (revGlob) return { action: "block", reason: `the command names '${word}', whose path matches forbidden glob '${revGlob}'`, targets: [fromRoot] };
    }
    return this.allow(this.exists(word) ? [target] : []);
  }

  /**
   * Code a command runs from a string or a here-document: a shell's `-c` string, `eval`'s words and
   * here-documents fed to a shell are judged as commands; other interpreters' code (`python3 -c`,
   * `node -e`, a here-document) is scanned for literal paths, since nobody can evaluate it here.
   */
  private nested(words: string[], heredocs: string[], depth: number): Policy | undefined {
    const targets: string[] = [];
    const judge = (policy: Policy): Blocked | undefined => {
      if (policy.action === "block") return policy;
      targets.push(...policy.targets);
      return undefined;
    };
    for (let i = 0; i < words.length; i++) {
      const name = basename(words[i]!);
      if (name === "eval") return judge(this.bash(words.slice(i + 1).join(" "), depth + 1)) ?? this.allow(targets);
      if (SHELLS.has(name)) {
        const c = words.findIndex((word, k) => k > i && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
        if (c > 0 && words[c + 1] !== undefined) {
          const blocked = judge(this.bash(words[c + 1]!, depth + 1));
          if (blocked) return blocked;
        }
        for (const body of heredocs) {
          const blocked = judge(this.bash(body, depth + 1));
          if (blocked) return blocked;
        }
        return this.allow(targets);
      }
      if (INTERPRETERS.test(name)) {
        for (const text of [...words.slice(i + 1), ...heredocs]) {
          for (const token of text.match(CODE_TOKENS) ?? []) {
            const blocked = judge(this.word(token));
            if (blocked) return { ...blocked, reason: `${name} code names '${token}': ${blocked.reason.replace(/^the command names '[^']*', /, "")}` };
          }
        }
        return this.allow(targets);
      }
    }
    return undefined;
  }

  /**
   * git commands that print file contents (diff, show, log -p, stash show, cat-file, archive,
   * format-patch, ...) are reads of everything they can print: the whole tree unless pathspecs
   * narrow it, so they are blocked unless every pathspec stays clear of the forbidden globs, or an
   * exclude pathspec (`:!secrets`, `:(exclude)secrets/**`) covers each of them.
   */
  private gitRead(args: string[]): Policy | undefined {
    if (this.forbidden.length === 0) return undefined;
    let i = 0;
    let dir = this.cwd;
    for (; i < args.length; i++) {
      const word = args[i]!;
      if (word === "-C" && args[i + 1] !== undefined) dir = resolveFrom(dir, args[++i]!);
      else if (word === "-c" || word === "--git-dir" || word === "--work-tree" || word === "--namespace") i++;
      else if (!word.startsWith("-")) break;
    }
    const sub = args[i];
    if (sub === undefined) return undefined;
    const rest = args.slice(i + 1);
    const patch = rest.some((word) => /^(?:-p|-u|--patch|--patch-with-stat|--patch-with-raw|-[a-zA-Z]*p[a-zA-Z]*)$/.test(word));
    const namesOnly = rest.some((word) => NAMES_ONLY.has(word));
    const printsContents =
      sub === "cat-file"
        ? !rest.some((word) => /^-[tse]$/.test(word))
        : sub === "archive" || sub === "format-patch" || sub === "blame" || sub === "annotate"
          ? true
          : sub === "diff" || sub === "show" || sub === "difftool"
            ? patch || !namesOnly
            : sub === "log" || sub === "whatchanged" || sub === "reflog"
              ? patch
              : sub === "stash"
                ? rest[0] === "show" || (rest[0] === "list" && patch)
                : false;
    if (!printsContents) return undefined;
    const dash = rest.indexOf("--");
    // `HEAD:src/a.ts` narrows what show and cat-file print to that path (from the repository's root).
    const revPaths = (dash >= 0 ? rest.slice(0, dash) : rest).filter((word) => /^[^:-][^:]*:[^:]/.test(word)).map((word) => join(this.context.root, word.slice(word.indexOf(":") + 1)));
    const named = dash >= 0 ? rest.slice(dash + 1) : rest.filter((word) => !word.startsWith("-") && !word.includes(":") && this.existsIn(dir, word));
    const specs = [...(sub === "cat-file" ? [] : named), ...revPaths].filter((word) => word !== "");
    const excludes = specs.filter((spec) => /^:(?:!|\^|\(exclude\)|\(top,exclude\))/.test(spec)).map((spec) => spec.replace(/^:(?:!|\^|\([a-z,]*\))/, ""));
    const includes = specs.filter((spec) => !/^:(?:!|\^|\(exclude\)|\(top,exclude\))/.test(spec));
    const saved = this.cwd;
    this.cwd = dir;
    try {
      for (const scope of includes.length > 0 ? includes : ["."]) {
        const glob = this.scopeReaches(scope);
        if (glob === undefined) continue;
        const excluded = excludes.some((ex) => {
          const prefix = stripSlash(fixedPrefix(this.clean(glob)));
          const rel = this.relpath(ex.replace(/\/\*\*$|\/\*$/, ""));
          return rel.split("|").some((candidate) => candidate === prefix || (prefix.startsWith(`${candidate}/`) && candidate !== "."));
        });
        if (!excluded)
          return {
            action: "block",
            reason: `'git ${sub}' can print files under '${scope}', which may include forbidden glob '${glob}'; name pathspecs that avoid it, or exclude it (-- . ':!${stripSlash(fixedPrefix(this.clean(glob))) || glob}')`,
            targets: [this.relpath(scope)],
          };
      }
    } finally {
      this.cwd = saved;
    }
    return undefined;
  }

  private existsIn(dir: string, word: string): boolean {
    const saved = this.cwd;
    this.cwd = dir;
    try {
      return this.exists(word);
    } finally {
      this.cwd = saved;
    }
  }

  private clean(glob: string): string {
    return glob.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  }

  private allow(targets: string[]): Policy {
    return { action: "allow", targets };
  }

  private absolute(raw: string): string {
    const expanded = raw === "~" || raw.startsWith("~/") ? `${this.context.home ?? "~"}${raw.slice(1)}` : raw;
    return normalize(isAbsolute(expanded) ? expanded : join(this.cwd, expanded));
  }

  private exists(raw: string): boolean {
    try {
      realpathSync(this.absolute(raw));
      return true;
    } catch {
      return false;
    }
  }

  /** `norm` and, when a symlink leads elsewhere, `norm|real`: each relative to the root when inside it. */
  relpath(raw: string): string {
    const norm = stripSlash(this.absolute(raw));
    const real = partialRealpath(norm);
    return [...new Set([norm, real].map((candidate) => this.fromRoot(candidate)))].join("|");
  }

  fromRoot(path: string): string {
    const root = this.context.root;
    if (path === root) return ".";
    return repoRelative(root, path) ?? path.split(sep).join("/");
  }

  /** The forbidden glob a target (`a|b`) matches, itself, inside it, or as the folder it names. */
  matches(target: string): string | undefined {
    for (const candidate of target.split("|").filter(Boolean)) {
      for (const glob of this.forbidden) {
        const clean = glob.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
        if (matchGlob(clean, candidate, { matchParents: true }) || fnmatchcase(candidate, clean) || candidate === stripSlash(fixedPrefix(clean))) return glob;
      }
    }
    return undefined;
  }

  /** The forbidden glob a search scope (a folder) may reach: the scope is inside it, or holds it. */
  scopeReaches(scope: string): string | undefined {
    if (this.forbidden.length === 0) return undefined;
    const target = this.relpath(scope === "" ? "." : scope);
    const direct = this.matches(target);
    if (direct) return direct;
    for (const candidate of target.split("|").filter(Boolean)) {
      if (candidate === ".") return this.forbidden[0];
      for (const glob of this.forbidden) {
        const prefix = stripSlash(fixedPrefix(glob.replace(/\\/g, "/").replace(/^(\.\/)+/, "")));
        if (prefix === "" || prefix === candidate || prefix.startsWith(`${candidate}/`) || candidate.startsWith(`${prefix}/`)) return glob;
      }
    }
    return undefined;
  }

  /**
   * The forbidden glob a shell or Glob pattern may reach: compared segment by segment with the
   * glob's literal folder, the pattern names that folder, a folder on its way, or something in it.
   */
  private patternReaches(pattern: string): string | undefined {
    const rel = this.fromRoot(this.absolute(pattern)).split("/").filter(Boolean);
    for (const glob of this.forbidden) {
      const prefix = stripSlash(fixedPrefix(glob.replace(/\\/g, "/").replace(/^(\.\/)+/, "")))
        .split("/")
        .filter(Boolean);
      if (prefix.length === 0) return glob;
      let reaches = true;
      for (let i = 0; i < Math.min(rel.length, prefix.length); i++) {
        if (rel[i] === "**") break;
        if (!fnmatchcase(prefix[i]!, rel[i]!)) {
          reaches = false;
          break;
        }
      }
      if (reaches) return glob;
    }
    return undefined;
  }
}

/** A glob's leading literal segments: `src/gen/**\/*.ts` -> `src/gen`. */
export function fixedPrefix(glob: string): string {
  const parts: string[] = [];
  for (const part of glob.split("/")) {
    if (/[*?[]/.test(part)) break;
    if (part !== "") parts.push(part);
  }
  return (glob.startsWith("/") ? "/" : "") + parts.join("/");
}

function joinScope(base: string, prefix: string): string {
  if (isAbsolute(prefix) || base === "") return prefix === "" ? base || "." : prefix;
  return join(base, prefix);
}

function resolveFrom(dir: string, path: string): string {
  return normalize(isAbsolute(path) ? path : join(dir, path));
}

function stripSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
