import type { AutoState } from "./decide.js";
import type { AutoOrientation } from "./orientation.js";

const KNOWN = new Set(["session_id", "path", "written_at_ms", "digest", "document_sha256", "title", "orientation", "request"]);
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * A session's automatic-handoff state file (docs/storage.md, "Automatic handoffs"):
 * `<managed root>/handoff-sessions/<sha256(session_id)>.json`, mode 0600. Checked by hand, not
 * with zod, for the hook's start-up (see event.ts); anything else is as if no state existed.
 *
 * @example
 * ```ts
 * parseAutoState({ session_id: "2f0c", path: "/tmp/compound-engineering-1000/ce-handoff/app-1a2b3c4d5e6f/fix-login.md",
 *   written_at_ms: 1764583200000, digest: "9f86...(64 hex)", document_sha256: "5e88...(64 hex)", title: "Fix login",
 *   orientation: { task: "Fix the login bug", failed: [], next: [] } }) // the same object
 * parseAutoState({ session_id: "2f0c" }) // undefined
 * ```
 */
export function parseAutoState(value: unknown): AutoState | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((key) => !KNOWN.has(key))) return undefined;
  if (typeof v.session_id !== "string" || v.session_id === "" || typeof v.path !== "string" || v.path === "" || typeof v.title !== "string") return undefined;
  if (typeof v.written_at_ms !== "number" || !Number.isSafeInteger(v.written_at_ms) || v.written_at_ms < 0) return undefined;
  if (typeof v.digest !== "string" || !SHA256.test(v.digest)) return undefined;
  if (v.document_sha256 !== undefined && (typeof v.document_sha256 !== "string" || !SHA256.test(v.document_sha256))) return undefined;
  if (v.request !== undefined && typeof v.request !== "string") return undefined;
  const orientation = v.orientation === undefined ? undefined : parseOrientation(v.orientation);
  if (v.orientation !== undefined && orientation === undefined) return undefined;
  const state: AutoState = { session_id: v.session_id, path: v.path, written_at_ms: v.written_at_ms, digest: v.digest, title: v.title };
  if (typeof v.document_sha256 === "string") state.document_sha256 = v.document_sha256;
  if (orientation) state.orientation = orientation;
  if (typeof v.request === "string") state.request = v.request;
  return state;
}

function parseOrientation(value: unknown): AutoOrientation | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((key) => !["task", "state", "failed", "next"].includes(key))) return undefined;
  const strings = (list: unknown) => (Array.isArray(list) && list.every((item) => typeof item === "string") ? (list as string[]) : undefined);
  const failed = strings(v.failed);
  const next = strings(v.next);
  if (!failed || !next || (v.task !== undefined && typeof v.task !== "string") || (v.state !== undefined && typeof v.state !== "string")) return undefined;
  const orientation: AutoOrientation = { failed, next };
  if (typeof v.task === "string") orientation.task = v.task;
  if (typeof v.state === "string") orientation.state = v.state;
  return orientation;
}
