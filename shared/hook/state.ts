import type { AutoState } from "./decide.js";

/**
 * A session's automatic-handoff state file (docs/storage.md, "Automatic handoffs"):
 * `<managed root>/handoff-sessions/<sha256(session_id)>.json`, mode 0600. Checked by hand, not
 * with zod, for the hook's start-up (see event.ts); anything else is as if no state existed.
 *
 * @example
 * ```ts
 * parseAutoState({ session_id: "2f0c", path: "/tmp/compound-engineering-1000/ce-handoff/app-1a2b3c4d5e6f/fix-login.md",
 *   written_at_ms: 1764583200000, digest: "9f86...(64 hex)", title: "Fix login", request: "Fix the login bug" }) // the same object
 * parseAutoState({ session_id: "2f0c" }) // undefined
 * ```
 */
export function parseAutoState(value: unknown): AutoState | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const known = new Set(["session_id", "path", "written_at_ms", "digest", "title", "request"]);
  if (Object.keys(v).some((key) => !known.has(key))) return undefined;
  if (typeof v.session_id !== "string" || v.session_id === "" || typeof v.path !== "string" || v.path === "" || typeof v.title !== "string") return undefined;
  if (typeof v.written_at_ms !== "number" || !Number.isSafeInteger(v.written_at_ms) || v.written_at_ms < 0) return undefined;
  if (typeof v.digest !== "string" || !/^[0-9a-f]{64}$/.test(v.digest)) return undefined;
  if (v.request !== undefined && typeof v.request !== "string") return undefined;
  const state: AutoState = { session_id: v.session_id, path: v.path, written_at_ms: v.written_at_ms, digest: v.digest, title: v.title };
  if (typeof v.request === "string") state.request = v.request;
  return state;
}
