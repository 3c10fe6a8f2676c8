import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { AutoState } from "../../shared/hook/decide.js";
import { parseAutoState } from "../../shared/hook/state.js";
import type { Env } from "../platform/env.js";
import { replaceFile } from "../platform/fs.js";
import { ensureStoreDir, inspectManagedRoot, managedRoots, openManagedRoot, STORE_FOLDER } from "../lib/store.js";

/** Beside the store's ce-handoff/ folder, never inside it: discovery does not look here. */
const STATE_FOLDER = "handoff-sessions";

const uid = () => process.getuid?.() ?? -1;
const fileName = (sessionId: string) => `${createHash("sha256").update(sessionId).digest("hex")}.json`;

/** sha256 of a document's bytes, as the state records the file the hook wrote. */
export function documentSha256(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The session's last automatic handoff, or undefined (none, or a file this tool did not write). */
export function readSessionState(env: Env, sessionId: string): AutoState | undefined {
  for (const root of safeRoots(env)) {
    const state = readStateFile(join(root, STATE_FOLDER, fileName(sessionId)));
    if (state?.session_id === sessionId) return state;
  }
  return undefined;
}

/** A root someone else could write to is not read: its state could point anywhere. */
function safeRoots(env: Env): string[] {
  return managedRoots(env).filter((root) => inspectManagedRoot(root) === "ok");
}

function readStateFile(path: string): AutoState | undefined {
  try {
    return parseAutoState(JSON.parse(readFileSync(path, "utf8")));
  } catch {
    // Missing, torn or foreign: as if none were there; the next write replaces it.
    return undefined;
  }
}

/** Replaces the session's state by a rename: a reader sees the old state or the new, never half. */
export function writeSessionState(env: Env, state: AutoState): void {
  const { root } = openManagedRoot(managedRoots(env));
  const dir = join(root, STATE_FOLDER);
  ensureStoreDir(dir, uid());
  replaceFile(join(dir, fileName(state.session_id)), `${JSON.stringify(state)}\n`);
}

/** The handoff a session's last automatic write left, when it is still there. */
export function lastAutoHandoff(env: Env, sessionId: string): AutoState | undefined {
  const state = readSessionState(env, sessionId);
  return state !== undefined && existsSync(state.path) ? state : undefined;
}

/**
 * Whether the file at `state.path` is exactly the handoff the hook wrote there: a regular file
 * (not a link) inside a managed root's ce-handoff/ folder, whose bytes hash to what the state
 * recorded. A user's own handoff that took the same name afterwards is never the hook's, and a
 * state written before the hook recorded the hash proves nothing.
 */
export function isHookWritten(env: Env, state: AutoState): boolean {
  if (state.document_sha256 === undefined) return false;
  if (!managedRoots(env).some((root) => state.path.startsWith(join(root, STORE_FOLDER, "/")))) return false;
  try {
    if (!lstatSync(state.path).isFile()) return false;
    return documentSha256(readFileSync(state.path)) === state.document_sha256;
  } catch {
    return false;
  }
}

/**
 * Removes the automatic handoffs the hook wrote before `cutoffMs`, as its own state records them,
 * and their state files; `keep` (this session's) stays. Never by keyword: a handoff of the user's
 * that carries `auto` is not the hook's. Returns how many handoffs were removed.
 */
export function expireAutoHandoffs(env: Env, cutoffMs: number, keepSession: string): number {
  let removed = 0;
  for (const root of safeRoots(env)) {
    const dir = join(root, STATE_FOLDER);
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => /^[0-9a-f]{64}\.json$/.test(name));
    } catch {
      continue;
    }
    for (const name of names) {
      const file = join(dir, name);
      const state = readStateFile(file);
      if (state === undefined || state.session_id === keepSession || state.written_at_ms >= cutoffMs) continue;
      if (isHookWritten(env, state)) {
        unlinkSync(state.path);
        removed++;
      }
      unlinkSync(file);
    }
  }
  return removed;
}
