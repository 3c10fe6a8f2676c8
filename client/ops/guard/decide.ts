import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize, sep } from "node:path";
import { matchGlob } from "../../../shared/repo/glob.js";
import { type ActivePointer, type GuardMode, isFolder } from "../../lib/guard-state.js";
import type { Env } from "../../platform/env.js";
import { partialRealpath, repoRelative } from "../../platform/paths.js";
import { fnmatchcase } from "./fnmatch.js";
import { resolveGit } from "./git-reads.js";
import { type Read, readsOfCommand } from "./shell-reads.js";
import { expandGlob, MAX_ENTRIES, walk } from "./tree-scan.js";

/**
 * The guard's decision for one PreToolUse event, as the reference guard decides it:
 *   sealed:   block a path matching context.forbidden (and a search whose scope may reach one)
 *   bounded:  allow; what is not on the manifest's allowlist is recorded in the ledger
 *   advisory: allow
 * Bash is judged by what the command would read (shell-reads.ts), globs and recursive reads
 * against the real tree, git by what it would print (git-reads.ts). Where this is stricter than
 * the reference (Bash, a Glob's base folder, `*.pem` globs also matched segment-wise),
 * docs/agents.md lists it. The caller does the I/O (ledger, exit code).
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
  /** For the git the guard runs (PATH, HOME); the process's own when not given. */
  env?: Env;
  /** Linked worktrees of the root: paths inside one are judged relative to it, by the root's manifest. */
  tops?: string[];
  /** The volume compares names without case (case-fold.ts): so does the guard. */
  foldCase?: boolean;
  /** The Bash command's reads, when the caller parsed it already. */
  reads?: Read[];
  /** Whether a git read belongs to this root's repository (another repository's manifest judges it otherwise). */
  ownsGit?: (read: Extract<Read, { kind: "git" }>) => boolean;
}

type Blocked = { action: "block"; reason: string; targets: string[] };
type Policy = Blocked | { action: "allow"; targets: string[] };

export function decide(pointer: ActivePointer, event: HookEvent, context: DecideContext): GuardDecision {
  const tool = typeof event.tool_name === "string" ? event.tool_name : "";
  if (pointer.mode === "advisory") return { action: "allow", mode: "advisory", tool, targets: [] };
  const input = typeof event.tool_input === "object" && event.tool_input !== null ? (event.tool_input as Record<string, unknown>) : {};
  const policy = new PathPolicy(pointer.forbidden, context, pointer.mode === "bounded").evaluate(tool, input);
  if (pointer.mode === "sealed") {
    return policy.action === "block" ? { action: "block", mode: "sealed", tool, reason: policy.reason, targets: policy.targets } : { action: "allow", mode: "sealed", tool, targets: policy.targets };
  }
  // Bounded: what the manifest selected is accounted for already; everything else is ledgered.
  const allowlist = new Set(pointer.allowlist.map((path) => path.replace(/\\/g, "/").replace(/^(\.\/)+/, "")));
  const beyond = policy.targets.filter((target) => !target.split("|").some((part) => allowlist.has(part)));
  if (beyond.length === 0) return { action: "allow", mode: "bounded", tool, targets: policy.targets };
  return { action: "ledger", mode: "bounded", tool, targets: beyond, ...(policy.action === "block" ? { reason: policy.reason } : {}) };
}

/** Bounded mode ledgers at most this many paths from one git listing. */
const MAX_LEDGERED = 100;
/** A direct read of git's object store reads every committed version of every file. */
const GIT_STORE = /(?:^|\/)\.git\/(?:objects|lost-found)(?:\/|$)/;
/** A recursive read of a `.git` folder reads the store and the rest of git's plain copies (rr-cache, stashes' index). */
const GIT_DIR = /(?:^|\/)\.git(?:\/|$)/;

class PathPolicy {
  private readonly forbidden: readonly string[];
  /** Directory entries left for this decision's globs and tree walks. */
  private readonly budget = { left: MAX_ENTRIES };

  constructor(
    forbidden: readonly string[],
    private readonly context: DecideContext,
    /** Bounded mode: the targets are ledgered, so they are the paths that exist. */
    private readonly ledgering: boolean,
  ) {
    this.forbidden = forbidden.map((glob) => glob.replace(/\\/g, "/").replace(/^(\.\/)+/, ""));
    this.cwd = context.cwd;
    this.tops = [context.root, ...(context.tops ?? [])];
  }

  /** Where relative tool paths resolve: the event's cwd. */
  private readonly cwd: string;

  evaluate(tool: string, input: Record<string, unknown>): Policy {
    const text = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : "");
    if (tool === "Grep") {
      const scope = text("path");
      if (scope === "") {
        if (this.forbidden.length > 0) return { action: "block", reason: "pathless Grep may scan forbidden context", targets: ["Grep:workspace"] };
        return allow(["Grep:workspace"]);
      }
      return this.tree(this.absolute(scope), `Grep scans '${scope}'`);
    }
    if (tool === "Glob") return this.globTool(text("pattern"), text("path"));
    if (tool === "Bash") return this.bash(this.context.reads ?? readsOfCommand(text("command"), { cwd: this.cwd, home: this.context.home }));
    // Handoff's own MCP tools (the plugin's hook matches mcp__handoff__.*): the path each one reads, sends or writes.
    const raw = text("file_path") || text("path") || text("notebook_path") || text("pattern") || (tool.startsWith("mcp__") ? text("source") || text("to") || text("manifest") || text("from") : "");
    if (raw === "") return allow([]);
    const target = this.relpath(this.absolute(raw));
    const glob = this.matches(target);
    return glob ? { action: "block", reason: `'${raw}' matches forbidden glob '${glob}'`, targets: [target] } : allow([target]);
  }

  /**
   * The Glob tool lists what its pattern matches under `path` (any depth for `**`, dotfiles too):
   * blocked when a match is forbidden; past the budget, by the pattern's shape alone.
   */
  private globTool(pattern: string, base: string): Policy {
    const targets = [pattern];
    const absolute = this.absolute(base === "" ? pattern : join(base, pattern));
    const matches = expandGlob(absolute, this.budget, { dot: true });
    const blocked = (glob: string): Policy => ({ action: "block", reason: `Glob pattern '${pattern}'${base ? ` in '${base}'` : ""} may enumerate forbidden glob '${glob}'`, targets });
    if (matches === undefined) {
      const glob = this.scopeReaches(this.absolute(joinScope(base, fixedPrefix(pattern)))) ?? this.patternReaches(absolute);
      return glob ? blocked(glob) : allow(targets);
    }
    for (const match of matches) {
      const glob = this.matches(this.relpath(match));
      if (glob) return blocked(glob);
    }
    return allow(targets);
  }

  private bash(reads: Read[]): Policy {
    const targets: string[] = [];
    for (const read of reads) {
      const verdict = this.judge(read);
      if (verdict.action === "block") return verdict;
      targets.push(...verdict.targets);
    }
    return allow([...new Set(targets)]);
  }

  private judge(read: Read): Policy {
    switch (read.kind) {
      case "path":
        return this.path(read.path, read.via);
      case "tree":
        return isFolder(read.path) ? this.tree(read.path, read.via, read.copy) : this.path(read.path, read.via);
      case "glob":
        return this.glob(read);
      case "computed":
        return this.computed(read);
      case "git":
        return this.git(read);
      case "refuse":
        return this.forbidden.length > 0 ? { action: "block", reason: `${read.reason} while a manifest forbids paths`, targets: [] } : allow([]);
    }
  }

  /** A path the command names: blocked when it is (or is inside) a forbidden path, or git's object store. */
  private path(absolute: string, via: string): Policy {
    const target = this.relpath(absolute);
    const glob = this.matches(target);
    if (glob) return { action: "block", reason: `${via}, which matches forbidden glob '${glob}'`, targets: [target] };
    if (this.forbidden.length > 0 && target.split("|").some((candidate) => GIT_STORE.test(candidate))) {
      return { action: "block", reason: `${via}, which is inside git's object store (every committed version of the forbidden files)`, targets: [target] };
    }
    // Only bounded mode reads the targets (its ledger holds the paths that exist): sealed mode skips the stat.
    return allow(this.ledgering && !exists(absolute) ? [] : [target]);
  }

  /** Everything under a folder: blocked when a forbidden path is really there (walked, bounded), or a copy takes `.git`. */
  private tree(absolute: string, via: string, copy = false): Policy {
    const target = this.relpath(absolute);
    const direct = this.matches(target);
    if (direct) return { action: "block", reason: `${via}, which matches forbidden glob '${direct}'`, targets: [target] };
    if (this.forbidden.length > 0 && ((copy && this.holdsGitDir(absolute)) || target.split("|").some((candidate) => GIT_DIR.test(candidate)))) {
      return { action: "block", reason: `${via}, which holds the repository's .git (every committed version of the forbidden files)`, targets: [target] };
    }
    const glob = this.scopeReaches(absolute);
    if (glob === undefined) return allow([target]);
    const found = isFolder(absolute) ? this.forbiddenUnder(absolute) : { path: target, glob };
    if (found === undefined) return allow([target]);
    const what = found === "over" ? `may include forbidden glob '${glob}' (more files than the guard reads)` : `includes '${found.path}', matching forbidden glob '${found.glob}'`;
    return { action: "block", reason: `${via}, which ${what}`, targets: [target] };
  }

  /** The first forbidden path under a folder, "over" past the budget, undefined when there is none. */
  private forbiddenUnder(folder: string): { path: string; glob: string } | "over" | undefined {
    let found: { path: string; glob: string } | undefined;
    const over = walk(folder, this.budget, (path, entry) => {
      const target = entry.isSymbolicLink() ? this.relpath(path) : this.fromRoot(path);
      const glob = this.matches(target) ?? (entry.isSymbolicLink() && leadsToFolder(path) ? this.scopeReaches(path) : undefined);
      if (glob) {
        found = { path: target.split("|")[0]!, glob };
        return "stop";
      }
      return entry.isDirectory() && !this.mayHold(target) && !this.holdsWorktree(path) ? "skip" : undefined;
    });
    return found ?? (over ? "over" : undefined);
  }

  /** Whether a folder (root-relative) can hold a forbidden path, by the globs' literal folders. */
  private mayHold(rel: string): boolean {
    const folder = this.fold(rel);
    return this.forbidden.some((glob) => {
      const prefix = this.fold(stripSlash(fixedPrefix(glob)));
      return prefix === "" || prefix === folder || prefix.startsWith(`${folder}/`) || folder.startsWith(`${prefix}/`);
    });
  }

  /** Whether a folder holds one of the root's linked worktrees (whose own paths count, relative to it). */
  private holdsWorktree(folder: string): boolean {
    return (this.context.tops ?? []).some((top) => top.startsWith(`${folder}/`));
  }

  private holdsGitDir(absolute: string): boolean {
    const real = partialRealpath(absolute);
    return [this.context.root, ...(this.context.tops ?? [])].some((top) => {
      const dotGit = join(top, ".git");
      return repoRelative(real, dotGit) !== undefined || repoRelative(dotGit, real) !== undefined;
    });
  }

  /** A shell glob: the paths it matches on disk (or, unmatched, the word as written); past the budget, its shape. */
  private glob(read: Extract<Read, { kind: "glob" }>): Policy {
    if (!isAbsolute(read.pattern)) return this.computed({ kind: "computed", prefix: "", word: read.pattern, via: `${read.via} in a folder only run time knows,` });
    const matches = expandGlob(read.pattern, this.budget);
    if (matches === undefined) {
      const glob = this.patternReaches(read.pattern);
      return glob ? { action: "block", reason: `${read.via}, which may reach forbidden glob '${glob}' (more entries than the guard reads)`, targets: [] } : allow([]);
    }
    if (matches.length === 0) return this.path(read.pattern.replace(/\[([*?[])\]/g, "$1"), read.via);
    const targets: string[] = [];
    for (const match of matches) {
      const verdict = read.recursive ? this.tree(match, `${read.via}, matching '${this.fromRoot(match)}'`) : this.path(match, `${read.via}, matching '${this.fromRoot(match)}'`);
      if (verdict.action === "block") return verdict;
      targets.push(...verdict.targets);
    }
    return allow(targets);
  }

  /** A word only run time knows: blocked when its literal start could lead to a forbidden path. */
  private computed(read: Extract<Read, { kind: "computed" }>): Policy {
    if (this.forbidden.length === 0) return allow([]);
    const reach = this.computedReaches(read.prefix);
    return reach ? { action: "block", reason: `${read.via} which could name forbidden glob '${reach}'`, targets: [] } : allow([]);
  }

  private computedReaches(prefix: string): string | undefined {
    if (prefix === "") return this.forbidden[0];
    const slash = prefix.lastIndexOf("/");
    const folder = prefix.slice(0, Math.max(slash, 1));
    const stem = prefix.slice(slash + 1);
    // A prefix that stops inside the root's own path (`/re` of `/repo`) can lead anywhere in it.
    if ([this.context.root, ...(this.context.tops ?? [])].some((top) => top.startsWith(prefix) && top !== folder)) return this.forbidden[0];
    for (const candidate of this.relpath(folder).split("|")) {
      const rel = this.fold(candidate === "." ? stem : `${candidate}/${stem}`);
      for (const glob of this.forbidden) {
        const literal = this.fold(/^[^*?[]*/.exec(glob)![0]);
        if (literal.startsWith(rel) || rel.startsWith(literal) || rel.startsWith(`${literal}/`)) return glob;
      }
    }
    return undefined;
  }

  /** git: refused outright, or judged by the paths git says the command can print. */
  private git(read: Extract<Read, { kind: "git" }>): Policy {
    if (this.forbidden.length === 0 || (this.context.ownsGit && !this.context.ownsGit(read))) return allow([]);
    const verdict = resolveGit(read, { env: this.context.env ?? process.env, home: this.context.home, expandGlob: (pattern) => expandGlob(pattern, this.budget) });
    if (verdict.refused) return { action: "block", reason: verdict.refused, targets: [] };
    const targets: string[] = [];
    for (const further of verdict.reads) {
      const policy = this.judge(further);
      if (policy.action === "block") return policy;
      targets.push(...policy.targets);
    }
    for (const { top, names, via } of verdict.prints) {
      for (const name of names) {
        const target = top === this.context.root ? name : this.fromRoot(join(top, name));
        const glob = this.matches(target);
        if (glob) return { action: "block", reason: `${via} '${name}', which matches forbidden glob '${glob}'`, targets: [target] };
        if (targets.length < MAX_LEDGERED) targets.push(target);
      }
    }
    return allow(targets);
  }

  private absolute(raw: string): string {
    const expanded = raw === "~" || raw.startsWith("~/") ? `${this.context.home ?? "~"}${raw.slice(1)}` : raw;
    return normalize(isAbsolute(expanded) ? expanded : join(this.cwd, expanded));
  }

  /** `norm` and, when a symlink leads elsewhere, `norm|real`: each relative to its work tree when inside one. */
  relpath(absolute: string): string {
    const norm = stripSlash(absolute);
    const real = realOf(norm);
    return [...new Set([norm, real].map((candidate) => this.fromRoot(candidate)))].join("|");
  }

  /** A path relative to the deepest work tree holding it (the root or one of its linked worktrees), else as given. */
  fromRoot(path: string): string {
    let best: string | undefined;
    for (const top of this.tops) {
      // Both are absolute and normalized here, so containment is a prefix: no path.relative per entry of a walk.
      const base = top.endsWith(sep) ? top : top + sep;
      const rel = path === top ? "." : path.startsWith(base) ? path.slice(base.length) : undefined;
      if (rel !== undefined && (best === undefined || rel.length < best.length)) best = rel;
    }
    return (best ?? path).split(sep).join("/");
  }

  /** The root and its linked worktrees: the work trees paths are judged relative to. */
  private readonly tops: string[];

  /** The forbidden glob a target (`a|b`) matches, itself, inside it, or as the folder it names. */
  matches(target: string): string | undefined {
    for (const raw of target.split("|")) {
      if (raw === "") continue;
      const candidate = this.fold(raw);
      for (const glob of this.forbidden) {
        const clean = this.fold(glob);
        if (matchGlob(clean, candidate, { matchParents: true }) || fnmatchcase(candidate, clean) || candidate === stripSlash(fixedPrefix(clean))) return glob;
      }
    }
    return undefined;
  }

  /** The forbidden glob a search scope (a folder) may reach, by names alone: the scope is inside it, or holds it. */
  scopeReaches(absolute: string): string | undefined {
    if (this.forbidden.length === 0) return undefined;
    const target = this.relpath(absolute);
    const direct = this.matches(target);
    if (direct) return direct;
    for (const candidate of target.split("|").filter(Boolean)) {
      for (const glob of this.forbidden) {
        const prefix = this.fold(stripSlash(fixedPrefix(glob)));
        const folder = this.fold(candidate);
        if (prefix === "" || folder === "." || prefix === folder || prefix.startsWith(`${folder}/`) || folder.startsWith(`${prefix}/`)) return glob;
      }
    }
    return undefined;
  }

  /**
   * The forbidden glob a shell or Glob pattern may reach: compared segment by segment with the
   * glob's literal folder, the pattern names that folder, a folder on its way, or something in it.
   */
  private patternReaches(pattern: string): string | undefined {
    const rel = this.fold(this.fromRoot(pattern)).split("/").filter(Boolean);
    for (const glob of this.forbidden) {
      const prefix = this.fold(stripSlash(fixedPrefix(glob)))
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

  /** On a volume that ignores case, names are compared folded. */
  private fold(text: string): string {
    return this.context.foldCase ? text.toLowerCase() : text;
  }
}

function allow(targets: string[]): Policy {
  return { action: "allow", targets };
}

/**
 * Where a path really leads, as partialRealpath says (the longest existing prefix resolved, the
 * rest as written), without an exception per missing name: a Bash command's words mostly name
 * nothing (`-rn`, `TODO`), and a thrown error costs more than the rest of judging the word.
 */
function realOf(path: string): string {
  let existing = path;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return path;
    rest.unshift(basename(existing));
    existing = parent;
  }
  try {
    return join(realpathSync.native(existing), ...rest);
  } catch {
    return partialRealpath(path);
  }
}

/** Whether a symlink met in a walk leads to a folder (a loop or a dangling one: no). */
function leadsToFolder(path: string): boolean {
  try {
    return isFolder(path);
  } catch {
    return false;
  }
}

/** Whether a path leads to something (symlinks followed), for the ledger's targets. */
function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
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

function stripSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
