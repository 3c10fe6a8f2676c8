import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { findGuardRoot, gitToplevelOf, parsePointer, POINTER_PATH } from "../lib/guard-state.js";
import { managedRoots } from "../lib/store.js";
import { partialRealpath, repoRelative } from "../platform/paths.js";
import { type Access, assertMayAccess } from "../ops/guard/policy.js";
import type { Env } from "../platform/env.js";

/**
 * The MCP server's trust boundary. An agent (possibly steered by text in a handoff it just read)
 * chooses every argument, so each path a tool reads, sends or writes passes two checks:
 *   1. it stays inside the current project (the git toplevel of the server's cwd, else the cwd)
 *      or the managed store, symlinks resolved: anything else needs the CLI, run by the user;
 *   2. the guard's policy (policy.ts), the same decision the PreToolUse hook makes.
 * Also here: what the agent must not do over MCP at all (replace an armed manifest), and the
 * neutralising of the untrusted wrapper's tags inside a handoff's text.
 */

/** What the gate needs of a tool call's context: where it runs and its environment. */
interface Where {
  cwd: string;
  env: Env;
}

/** Returns the absolute path when `path` may be read, sent or written by this MCP session. */
export function gatePath(path: string, access: Access, io: Where, what: string): string {
  const absolute = resolve(io.cwd, path);
  const real = partialRealpath(absolute);
  const allowed = allowedRoots(io);
  if (!allowed.some((root) => inside(real, root))) {
    throw new HandoffError(
      "forbidden",
      `${what} ${path} is outside the project (${allowed[0]}) and the managed store: over MCP, ${access === "write" ? "handoffs are written" : "files are read"} only there`,
      {
        hint:
          access === "write"
            ? "drop 'to' (the managed store), name a path inside the project, or have the user run the CLI with --to"
            : "copy it into the project, or have the user run the CLI command for it",
        details: { path, resolved: real },
      },
    );
  }
  assertMayAccess(absolute, access, { cwd: io.cwd, home: io.env.HOME });
  return absolute;
}

/** orient's source: a URL as given (the user passes share links), else a file gated for reading. */
export function gateSource(source: string, io: Where): string {
  if (/^https?:\/\//i.test(source)) return source;
  // A team entry (`team:<id>` from discover with team) is read from the server, not the disk.
  if (/^team:[A-Za-z0-9_-]{22}$/.test(source)) return source;
  gatePath(source, "read", io, "source");
  return source;
}

/**
 * Activation over MCP may arm the guard, never loosen it: while a sealed or bounded manifest is
 * active, only the user replaces it (with the CLI), as only the user deactivates it.
 */
export function refuseReplacingArmedManifest(io: Where): void {
  const root = findGuardRoot(io.cwd);
  let text: string;
  try {
    text = readFileSync(join(root, POINTER_PATH), "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new HandoffError("forbidden", `the guard's pointer ${join(root, POINTER_PATH)} cannot be read; activation over MCP is refused`, {
      hint: "have the user run 'handoff context --deactivate' or fix the file",
    });
  }
  const pointer = parsePointer(text);
  const mode = typeof pointer === "string" ? "unreadable" : pointer.mode;
  if (mode === "advisory") return;
  throw new HandoffError("forbidden", `a ${mode} manifest (${typeof pointer === "string" ? "?" : pointer.manifest}) is active; over MCP it cannot be replaced`, {
    hint: "ask the user to run 'handoff context --deactivate' (or 'handoff context MANIFEST --activate') themselves",
  });
}

/** The untrusted wrapper's own tags, inside the wrapped text, where the body could close it early. */
const WRAPPER_TAG = /<(\s*\/?\s*untrusted-handoff)/gi;

/** `</untrusted-handoff>` inside a body becomes `&lt;/untrusted-handoff>`: visible, and no longer a tag. */
export function neutraliseWrapperTags(text: string): string {
  return text.replace(WRAPPER_TAG, "&lt;$1");
}

function allowedRoots(io: Where): string[] {
  const cwd = partialRealpath(io.cwd);
  const project = gitToplevelOf(cwd) ?? cwd;
  return [project, ...managedRoots(io.env).map(partialRealpath)];
}

function inside(path: string, root: string): boolean {
  return repoRelative(root, path) !== undefined;
}
