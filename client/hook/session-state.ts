import { createHash } from "node:crypto";
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, unlinkSync } from "node:fs";
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

/** A session's write lock older than this was left by a hook that was killed: it is taken over. */
const LOCK_STALE_MS = 60 * 1000;

/**
 * Takes the session's write lock (`handoff-sessions/<sha256 of session_id>.lock`, created
 * exclusively), or returns undefined while another `handoff hook` holds it: an agent that runs
 * two registrations of the same command at once (Claude Code does, for the same command in a
 * plugin and in settings) must not write two handoffs for one session. The returned function
 * releases it.
 */
export function lockSession(env: Env, sessionId: string, nowMs: number): (() => void) | undefined {
  const { root } = openManagedRoot(managedRoots(env));
  const dir = join(root, STATE_FOLDER);
  ensureStoreDir(dir, uid());
  const path = join(dir, fileName(sessionId).replace(/\.json$/, ".lock"));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(path, "wx", 0o600));
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = nowMs - (lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? nowMs);
      if (age < LOCK_STALE_MS) return undefined;
      try {
        unlinkSync(path);
      } catch {
        // Another process took it over first; the next attempt says who holds it.
      }
    }
  }
  return undefined;
}

/** Delivery marks older than this are removed when a new one is made: a duplicate comes within seconds. */
const DELIVERY_TTL_MS = 10 * 60 * 1000;

/**
 * Whether this process is the first to act on one delivery of an event (`key`: what tells the
 * delivery apart, the agent's own stamp included). VS Code runs every registration of `handoff
 * hook` on every event (it ignores matchers), so the plugin's four registrations would write four
 * times and put the same context in front of the agent four times: an exclusive create of a mark
 * (`handoff-sessions/deliveries/<sha256 of key>`) lets one of them act. Marks are removed after
 * {@link DELIVERY_TTL_MS}.
 */
export function claimDelivery(env: Env, key: string, nowMs: number): boolean {
  const { root } = openManagedRoot(managedRoots(env));
  const dir = join(root, STATE_FOLDER, "deliveries");
  ensureStoreDir(join(root, STATE_FOLDER), uid());
  ensureStoreDir(dir, uid());
  for (const name of readdirSync(dir)) {
    try {
      if (nowMs - lstatSync(join(dir, name)).mtimeMs > DELIVERY_TTL_MS) unlinkSync(join(dir, name));
    } catch {
      // Removed by another process meanwhile.
    }
  }
  try {
    closeSync(openSync(join(dir, createHash("sha256").update(key).digest("hex")), "wx", 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
