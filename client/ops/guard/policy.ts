import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import { describeFsError } from "../../platform/fs.js";
import { kernelTimestamp } from "../../../shared/time/timestamps.js";
import { type DecideContext, decide, type GuardDecision, type HookEvent } from "./decide.js";
import { type ActivePointer, appendLedger, findGuardScope, LEDGER_PATH, parsePointer, POINTER_PATH, UNSTATED_REASON } from "../../lib/guard-state.js";
import type { Env } from "../../platform/env.js";
import { partialRealpath } from "../../platform/paths.js";
import { linkedWorktreesOf } from "../../platform/work-tree.js";
import { volumeIgnoresCase } from "./case-fold.js";
import { gitAnchor } from "./git-reads.js";
import { COMPUTED } from "./shell-expand.js";
import { type Read, readsOfCommand } from "./shell-reads.js";

/**
 * The one decision behind every door an agent has to the disk: "may this session read, send or
 * write this path now?". The PreToolUse hook (`handoff guard`), the MCP tools that take a path and
 * the CLI commands that read files to send them all call it, so they cannot disagree.
 *
 * The policy is the active manifest of every repository involved: the one found from the
 * session's cwd AND the one that contains each target (its own `.git` walk), so `cd /tmp` or a
 * session started elsewhere does not step outside a sealed repository. It fails closed: once a
 * pointer exists, anything that stops the decision (an unreadable pointer, an exception while
 * judging, a failed ledger append) blocks, with the reason.
 * Node built-ins only: the hook runs this on every tool call.
 */

export type Access = "read" | "send" | "write";

export interface PolicyOptions {
  /** The folder relative paths resolve against (the hook event's cwd, the MCP server's cwd). */
  cwd: string;
  home: string | undefined;
  /** The environment git runs with when the guard asks it (PATH); the process's own when not given. */
  env?: Env;
  now?: () => Date;
}

export interface PolicyOutcome {
  allowed: boolean;
  /** Why it is blocked, for stderr or an error message; empty when allowed. */
  message: string;
  /** The manifest that blocked it, when one did. */
  manifest?: string;
  /** The root whose manifest decided (the first one that blocked, else the cwd's root). */
  root: string;
  decision?: GuardDecision;
}

/** The hook's question: may this tool call run? */
export function judgeEvent(event: HookEvent, options: PolicyOptions): PolicyOutcome {
  const cwd = eventCwd(event, options);
  const reads = bashReads(event, cwd, options.home);
  const scopes = new ScopeFinder();
  const roots = new Map<string, Set<string>>();
  const add = (path: string) => {
    const scope = scopes.of(path);
    const tops = roots.get(scope.root) ?? new Set<string>();
    if (scope.top !== scope.root) tops.add(scope.top);
    roots.set(scope.root, tops);
  };
  add(cwd);
  for (const path of eventPaths(event, options)) add(path);
  for (const read of reads ?? []) for (const path of anchorsOf(read, cwd)) add(path);
  let last: PolicyOutcome | undefined;
  for (const [root, tops] of roots) {
    const ownsGit = (read: Extract<Read, { kind: "git" }>) => anchorsOf(read, cwd).some((path) => scopes.of(path).root === root);
    const outcome = judgeUnder(root, event, options, { tops: [...tops], ...(reads ? { reads } : {}), ownsGit });
    if (!outcome.allowed) return outcome;
    last ??= outcome;
  }
  return last ?? { allowed: true, message: "", root: options.cwd };
}

/** A Bash event's reads (shell-reads.ts), parsed once for every repository that judges them. */
function bashReads(event: HookEvent, cwd: string, home: string | undefined): Read[] | undefined {
  if (event.tool_name !== "Bash") return undefined;
  const input = typeof event.tool_input === "object" && event.tool_input !== null ? (event.tool_input as Record<string, unknown>) : {};
  return typeof input.command === "string" ? readsOfCommand(input.command, { cwd, home }) : undefined;
}

/** The guard scopes of folders, each found once per decision. */
class ScopeFinder {
  private readonly known = new Map<string, { root: string; top: string }>();

  of(path: string): { root: string; top: string } {
    const folder = existingFolder(path);
    let scope = this.known.get(folder);
    if (scope === undefined) {
      scope = findGuardScope(folder);
      this.known.set(folder, scope);
    }
    return scope;
  }
}

/** The folders whose repositories' manifests apply to a read: where its path is, where git runs, a repository git copies. */
function anchorsOf(read: Read, cwd: string): string[] {
  switch (read.kind) {
    case "path":
    case "tree":
      return [read.path];
    case "glob":
      return [read.pattern.slice(0, Math.max(1, read.pattern.search(/[*?[]/)))];
    case "computed":
      return read.prefix === "" ? [] : [read.prefix];
    case "refuse":
      return [];
    case "git": {
      const anchor = gitAnchor(read) ?? read.cwd ?? cwd;
      const base = read.cwd ?? cwd;
      // A repository named by path (`git clone ../repo`, `git fetch /srv/repo`) is judged by its own manifest too.
      const named = read.args
        .filter((field) => !field.text.startsWith("-") && /[/.]/.test(field.text) && !field.text.includes(COMPUTED))
        .map((field) => resolve(base, field.text.replace(/^file:(?:\/\/(?:localhost)?)?/i, "")));
      return [anchor, ...named.filter((path) => existsSync(path))];
    }
  }
}

/**
 * The tools' question: may this session read (orient, validate, context), send (publish) or write
 * (create, checkpoint) `path` now? Judged exactly as the hook judges a Read of it.
 */
export function mayAccess(path: string, access: Access, options: PolicyOptions): PolicyOutcome {
  const absolute = normalize(isAbsolute(path) ? path : join(options.cwd, path));
  const outcome = judgeEvent({ tool_name: "Read", tool_input: { file_path: absolute }, cwd: options.cwd }, options);
  if (outcome.allowed) return outcome;
  const verb = access === "send" ? "sending" : access === "write" ? "writing" : "reading";
  return { ...outcome, message: outcome.message.replace(/^BLOCKED by sealed manifest:/, `BLOCKED ${verb} ${path} by sealed manifest:`) };
}

function judgeUnder(root: string, event: HookEvent, options: PolicyOptions, parts: Pick<DecideContext, "tops" | "reads" | "ownsGit"> = {}): PolicyOutcome {
  const pointerPath = join(root, POINTER_PATH);
  let text: string;
  try {
    text = readFileSync(pointerPath, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { allowed: true, message: "", root };
    return block(
      root,
      `handoff guard: a manifest is active but its pointer ${pointerPath} cannot be read (${describeFsError(cause)}); blocking. Re-run 'handoff context MANIFEST --activate', or 'handoff context --deactivate'.`,
    );
  }
  const pointer = parsePointer(text);
  if (typeof pointer === "string") {
    return block(
      root,
      `handoff guard: a manifest is active but its pointer ${pointerPath} is unusable: ${pointer}; blocking. Re-run 'handoff context MANIFEST --activate', or 'handoff context --deactivate'.`,
    );
  }
  if (pointer.mode === "advisory") return { allowed: true, message: "", root, decision: { action: "allow", mode: "advisory", tool: "", targets: [] } };
  let decision: GuardDecision;
  try {
    // Every linked worktree of the root counts, also one no event path led to (read whole from above it).
    const tops = [...new Set([...(parts.tops ?? []), ...linkedWorktreesOf(root).map((top) => partialRealpath(top))])].filter((top) => top !== root);
    decision = decide(pointer, event, { root, cwd: eventCwd(event, options), home: options.home, ...(options.env ? { env: options.env } : {}), foldCase: volumeIgnoresCase(root), ...parts, tops });
  } catch (cause) {
    return failClosed(root, pointer, cause);
  }
  if (decision.action === "block") {
    return {
      allowed: false,
      root,
      decision,
      manifest: pointer.manifest,
      message: [
        `BLOCKED by sealed manifest: ${decision.reason}`,
        `  Manifest: ${pointer.manifest}`,
        "  Sealed runs prohibit contaminating context. Provide a narrower safe path/glob, or amend the manifest and re-activate.",
      ].join("\n"),
    };
  }
  if (decision.action === "ledger") {
    const ts = kernelTimestamp(options.now?.() ?? new Date());
    try {
      appendLedger(
        root,
        decision.targets.map((path) => ({ path, reason: UNSTATED_REASON, ts })),
      );
    } catch (cause) {
      return block(root, `handoff guard: bounded access allowed but the ledger ${join(root, LEDGER_PATH)} could not be appended (${describeFsError(cause)}); blocking to keep the receipt complete.`);
    }
  }
  return { allowed: true, message: "", root, decision };
}

/** An exception while judging under an active manifest: the guard cannot know, so it blocks. */
export function failClosed(root: string, pointer: ActivePointer | undefined, cause: unknown): PolicyOutcome {
  const why = cause instanceof Error ? `${(cause as NodeJS.ErrnoException).code ?? cause.name}: ${cause.message}` : String(cause);
  return block(
    root,
    `handoff guard: could not judge the call (${why}); a${pointer ? ` ${pointer.mode}` : ""} manifest is active, so it is blocked. Name the path another way, or run it yourself outside the agent.`,
  );
}

function block(root: string, message: string): PolicyOutcome {
  return { allowed: false, message, root };
}

function eventCwd(event: HookEvent, options: PolicyOptions): string {
  return typeof event.cwd === "string" && isAbsolute(event.cwd) ? event.cwd : options.cwd;
}

/** The absolute paths an event names outright, whose repositories' manifests also apply. */
function eventPaths(event: HookEvent, options: PolicyOptions): string[] {
  const input = typeof event.tool_input === "object" && event.tool_input !== null ? (event.tool_input as Record<string, unknown>) : {};
  const cwd = eventCwd(event, options);
  const paths: string[] = [];
  for (const key of ["file_path", "path", "notebook_path", "pattern"]) {
    const value = input[key];
    if (typeof value === "string" && value !== "" && (key !== "pattern" || value.startsWith("/") || value.startsWith("~"))) paths.push(value);
  }
  const home = options.home;
  return paths.map((raw) => {
    const expanded = raw === "~" || raw.startsWith("~/") ? `${home ?? "~"}${raw.slice(1)}` : raw;
    return normalize(isAbsolute(expanded) ? expanded : join(cwd, expanded));
  });
}

/** The nearest folder at or above `path` that exists (where a repository walk can start). */
function existingFolder(path: string): string {
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return dir;
    } catch {
      // ENOTDIR, ENAMETOOLONG, ELOOP: keep walking up to a folder that exists.
    }
    if (dirname(dir) === dir) return dir;
  }
}

/** mayAccess for callers that throw: a refusal is a `forbidden` HandoffError naming the manifest. */
export function assertMayAccess(path: string, access: Access, options: PolicyOptions): void {
  const outcome = mayAccess(path, access, options);
  if (outcome.allowed) return;
  throw new HandoffError("forbidden", outcome.message.split("\n")[0]!, {
    hint: outcome.manifest
      ? `the active manifest ${outcome.manifest} forbids it; pick another path, or have the user amend the manifest and re-activate it`
      : "the guard's state could not be read; have the user fix or remove _meta/.active-manifest.json",
    details: { path, access, root: outcome.root },
  });
}
