/**
 * The hook events `handoff hook` acts on, as Claude Code and Codex send them on stdin. Both send
 * `session_id`, `transcript_path`, `cwd` and `hook_event_name`, plus one field per event:
 * - `PreCompact`: `trigger` (`manual` or `auto`); Claude Code also `custom_instructions`.
 * - `PostCompact`: `trigger`; Claude Code also `compact_summary`, the summary it just wrote
 *   (Codex sends none: its summary is the rollout's `compacted` line).
 * - `SessionEnd`: `reason` (Claude Code: `clear`, `logout`, `prompt_input_exit`, `other`...;
 *   Codex: always `other`).
 * - `SessionStart`: `source` (`startup`, `resume`, `clear`, `compact`; Codex also `fork`).
 * Fields this tool does not read are allowed (each agent adds its own: `model`, `turn_id`,
 * `permission_mode`, `agent_id`), so a newer agent's event still parses.
 *
 * Checked by hand, not with zod, on purpose (as the guard's pointer is): a hook starts a process
 * on every compaction and session start, and loading zod costs more than the rest of the check.
 */
export interface HookEvent {
  hook_event_name: string;
  session_id: string;
  /** Codex sends null when the session has no rollout file yet. */
  transcript_path?: string | null;
  cwd: string;
  trigger?: string;
  source?: string;
  reason?: string;
  compact_summary?: string;
}

const REQUIRED = ["hook_event_name", "session_id", "cwd"] as const;
const OPTIONAL = ["trigger", "source", "reason", "compact_summary"] as const;

/**
 * Reads a hook event, or says in one line why it cannot.
 *
 * @example
 * ```ts
 * parseHookEvent('{"hook_event_name":"PreCompact","session_id":"s","cwd":"/r","trigger":"auto","transcript_path":"/t.jsonl"}')
 * // { ok: true, event: { hook_event_name: "PreCompact", ... } }
 * parseHookEvent("") // { ok: false, reason: "no hook event on stdin: ..." }
 * ```
 */
export function parseHookEvent(text: string): { ok: true; event: HookEvent } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: false, reason: "no hook event on stdin: run 'handoff hook' from an agent's hook configuration, which sends the event as JSON" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the hook event on stdin is not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, reason: "the hook event is not one this tool reads: not a JSON object" };
  const fields = value as Record<string, unknown>;
  const refuse = (field: string, what: string) => ({ ok: false as const, reason: `the hook event is not one this tool reads: ${field}: ${what}` });
  for (const key of REQUIRED) {
    const field = fields[key];
    if (typeof field !== "string" || field === "") return refuse(key, "expected a non-empty string");
  }
  if ((fields.session_id as string).length > 512) return refuse("session_id", "longer than 512 characters");
  const event: HookEvent = { hook_event_name: fields.hook_event_name as string, session_id: fields.session_id as string, cwd: fields.cwd as string };
  const transcript = fields.transcript_path;
  if (transcript === null) event.transcript_path = null;
  else if (typeof transcript === "string" && transcript !== "") event.transcript_path = transcript;
  else if (transcript !== undefined) return refuse("transcript_path", "expected a non-empty string or null");
  for (const key of OPTIONAL) {
    const field = fields[key];
    if (typeof field === "string") event[key] = field;
    else if (field !== undefined && field !== null) return refuse(key, "expected a string");
  }
  return { ok: true, event };
}
