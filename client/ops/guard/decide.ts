import { realpathSync } from "node:fs";
import { basename, isAbsolute, join, normalize, sep } from "node:path";
import { matchGlob } from "../../../shared/repo/glob.js";
import { commandSegments, pathWords } from "./bash-words.js";
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

type Policy = { action: "block"; reason: string; targets: string[] } | { action: "allow"; targets: string[] };

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

class PathPolicy {
  constructor(
    private readonly forbidden: readonly string[],
    private readonly context: DecideContext,
  ) {}

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
    const raw = text("file_path") || text("path") || text("notebook_path") || text("pattern");
    if (raw === "") return this.allow([]);
    const target = this.relpath(raw);
    const glob = this.matches(target);
    return glob ? { action: "block", reason: `'${raw}' matches forbidden glob '${glob}'`, targets: [target] } : this.allow([target]);
  }

  private bash(command: string): Policy {
    const targets: string[] = [];
    for (const words of commandSegments(command)) {
      const at = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
      const program = at < 0 ? "" : basename(words[at]!);
      const args = pathWords(words.slice(at + 1));
      for (const word of args) {
        const target = this.relpath(word);
        const glob = /[*?[]/.test(word) ? (this.matches(target) ?? this.patternReaches(word)) : this.matches(target);
        if (glob) return { action: "block", reason: `the command names '${word}', which matches forbidden glob '${glob}'`, targets: [target] };
        if (this.exists(word)) targets.push(target);
      }
      const flag = RECURSIVE_FLAGS[program];
      const recursive = RECURSIVE_COMMANDS.has(program) || (program === "git" && words.includes("grep")) || (flag !== undefined && words.some((word) => flag.test(word)));
      if (!recursive) continue;
      const folders = args.filter((word) => isFolder(this.absolute(word)));
      for (const folder of folders.length > 0 ? folders : ["."]) {
        const glob = this.scopeReaches(folder);
        if (glob) return { action: "block", reason: `'${program}' reads everything under '${folder}', which may include forbidden glob '${glob}'`, targets: [this.relpath(folder)] };
      }
    }
    return this.allow([...new Set(targets)]);
  }

  private allow(targets: string[]): Policy {
    return { action: "allow", targets };
  }

  private absolute(raw: string): string {
    const expanded = raw === "~" || raw.startsWith("~/") ? `${this.context.home ?? "~"}${raw.slice(1)}` : raw;
    return normalize(isAbsolute(expanded) ? expanded : join(this.context.cwd, expanded));
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

  private fromRoot(path: string): string {
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
      const prefix = stripSlash(fixedPrefix(glob.replace(/\\/g, "/").replace(/^(\.\/)+/, ""))).split("/").filter(Boolean);
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

function stripSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

