import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AutoState } from "../../shared/hook/decide.js";
import { parseAutoState } from "../../shared/hook/state.js";
import type { Env } from "../platform/env.js";
import { replaceFile } from "../platform/fs.js";
import { ensureStoreDir, inspectManagedRoot, managedRoots, openManagedRoot } from "../lib/store.js";

/** Beside the store's ce-handoff/ folder, never inside it: discovery does not look here. */
const STATE_FOLDER = "handoff-sessions";

const uid = () => process.getuid?.() ?? -1;
const fileName = (sessionId: string) => `${createHash("sha256").update(sessionId).digest("hex")}.json`;

/** The session's last automatic handoff, or undefined (none, or a file this tool did not write). */
export function readSessionState(env: Env, sessionId: string): AutoState | undefined {
  for (const root of managedRoots(env)) {
    // A root someone else could write to is not read: its state could point anywhere.
    if (inspectManagedRoot(root) !== "ok") continue;
    let text: string;
    try {
      text = readFileSync(join(root, STATE_FOLDER, fileName(sessionId)), "utf8");
    } catch {
      continue;
    }
    try {
      const state = parseAutoState(JSON.parse(text));
      if (state?.session_id === sessionId) return state;
    } catch {
      // A torn or foreign file: as if none were there; the next write replaces it.
    }
  }
  return undefined;
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
