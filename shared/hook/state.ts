import * as z from "zod";
import type { AutoState } from "./decide.js";

/**
 * A session's automatic-handoff state file (docs/storage.md, "Automatic handoffs"):
 * `<managed root>/handoff-sessions/<sha256(session_id)>.json`, mode 0600.
 *
 * @example
 * ```json
 * { "session_id": "2f0c...", "path": "/tmp/compound-engineering-1000/ce-handoff/app-1a2b3c4d5e6f/fix-login.md",
 *   "written_at_ms": 1764583200000, "digest": "9f86d0...", "title": "Fix login", "request": "Fix the login bug" }
 * ```
 */
export const AutoStateSchema = z.strictObject({
  session_id: z.string().min(1),
  path: z.string().min(1),
  written_at_ms: z.number().int().nonnegative(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  title: z.string(),
  request: z.string().optional(),
}) satisfies z.ZodType<AutoState>;
