/**
 * The hook events `handoff hook` acts on, in each agent's own dialect, read into one shape.
 * Which agent sent an event is told from the event itself, never from the environment:
 *
 * | dialect | told by | session | folder | events (kind) |
 * | --- | --- | --- | --- | --- |
 * | `vscode` (VS Code agent hooks) | camelCase `hookEventName` | `sessionId` | `cwd` | `PreCompact`, `Stop` (its session end), `SessionStart` (`source: "new"`) |
 * | `cursor` | `cursor_version`, `workspace_roots` or `conversation_id`, or a camelCase event name | `conversation_id`, else `session_id` | `workspace_roots[0]`, else `cwd` | `preCompact`, `sessionEnd`, `sessionStart` |
 * | `gemini` (Gemini CLI) | `PreCompress`, or a `timestamp` beside snake_case fields | `session_id` | `cwd` | `PreCompress`, `SessionEnd`, `SessionStart` |
 * | `claude` (Claude Code, Codex) | the rest | `session_id` | `cwd` | `PreCompact`, `PostCompact`, `SessionEnd`, `SessionStart` |
 *
 * Cursor sends `session_id` only at a session's start and end and `conversation_id` at every
 * event; both name the same chat, so `conversation_id` comes first and one session keeps one
 * automatic handoff. Fields this tool does not read are allowed (each agent adds its own:
 * `model`, `turn_id`, `permission_mode`, `generation_id`), so a newer agent's event still parses.
 *
 * Checked by hand, not with zod, on purpose (as the guard's pointer is): a hook starts a process
 * on every compaction and session start, and loading zod costs more than the rest of the check.
 */

export type HookDialect = "claude" | "gemini" | "cursor" | "vscode";

/** What an event means to `handoff hook`, whatever the agent calls it. */
export type HookKind = "pre-compact" | "post-compact" | "session-end" | "session-start" | "other";

export interface HookEvent {
  dialect: HookDialect;
  /** The event's name as the agent sent it (`PreCompress`, `sessionEnd`, `Stop`, ...). */
  hook_event_name: string;
  kind: HookKind;
  session_id: string;
  /** Codex and Cursor send null when the session has no transcript file (yet). */
  transcript_path?: string | null;
  cwd: string;
  trigger?: string;
  /** SessionStart's `source`; VS Code's `"new"` reads as `startup`. */
  source?: string;
  reason?: string;
  compact_summary?: string;
  /** When the agent stamps each delivery (Gemini CLI, VS Code): the same delivery twice carries the same stamp. */
  timestamp?: string;
}

const KINDS: Record<HookDialect, Record<string, HookKind>> = {
  claude: { PreCompact: "pre-compact", PostCompact: "post-compact", SessionEnd: "session-end", SessionStart: "session-start" },
  gemini: { PreCompress: "pre-compact", SessionEnd: "session-end", SessionStart: "session-start" },
  cursor: { preCompact: "pre-compact", sessionEnd: "session-end", sessionStart: "session-start" },
  // VS Code has no SessionEnd: `Stop` is its session's end. (Claude Code's `Stop` ends a turn, and
  // is never registered for `handoff hook`; VS Code runs every registration on every event.)
  vscode: { PreCompact: "pre-compact", Stop: "session-end", SessionStart: "session-start" },
};

const OPTIONAL = ["trigger", "source", "reason", "compact_summary", "timestamp"] as const;

/**
 * The event's name, from either spelling, without reading anything else: what the guard asks
 * before it judges a tool call, since VS Code hands every registered hook every event.
 *
 * @example
 * ```ts
 * hookEventName('{"hookEventName":"SessionStart","sessionId":"s"}') // "SessionStart"
 * hookEventName("not json") // undefined
 * ```
 */
export function hookEventName(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const name = fields.hook_event_name ?? fields.hookEventName;
  return typeof name === "string" ? name : undefined;
}

/** Which agent's dialect an event object is written in (the table above). */
export function hookDialect(fields: Record<string, unknown>): HookDialect {
  if (typeof fields.hookEventName === "string" && fields.hook_event_name === undefined) return "vscode";
  const name = fields.hook_event_name;
  if (typeof fields.cursor_version === "string" || Array.isArray(fields.workspace_roots) || typeof fields.conversation_id === "string") return "cursor";
  if (typeof name === "string" && /^[a-z]/.test(name)) return "cursor";
  if (name === "PreCompress" || typeof fields.timestamp === "string") return "gemini";
  return "claude";
}

/**
 * Reads a hook event in any of the four dialects, or says in one line why it cannot.
 *
 * @example
 * ```ts
 * parseHookEvent('{"hook_event_name":"PreCompact","session_id":"s","cwd":"/r","trigger":"auto","transcript_path":"/t.jsonl"}')
 * // { ok: true, event: { dialect: "claude", kind: "pre-compact", session_id: "s", cwd: "/r", ... } }
 * parseHookEvent('{"conversation_id":"c","workspace_roots":["/r"],"hook_event_name":"preCompact","transcript_path":null}')
 * // { ok: true, event: { dialect: "cursor", kind: "pre-compact", session_id: "c", cwd: "/r", transcript_path: null } }
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
  const dialect = hookDialect(fields);
  const [nameKey, sessionKeys] =
    dialect === "vscode"
      ? (["hookEventName", ["sessionId"]] as const)
      : dialect === "cursor"
        ? (["hook_event_name", ["conversation_id", "session_id"]] as const)
        : (["hook_event_name", ["session_id"]] as const);
  const name = fields[nameKey];
  if (typeof name !== "string" || name === "") return refuse(nameKey, "expected a non-empty string");
  const sessionKey = sessionKeys.find((key) => typeof fields[key] === "string" && fields[key] !== "");
  if (sessionKey === undefined) return refuse(sessionKeys.join(" or "), "expected a non-empty string");
  const sessionId = fields[sessionKey] as string;
  if (sessionId.length > 512) return refuse(sessionKey, "longer than 512 characters");
  const cwd = dialect === "cursor" ? cursorFolder(fields) : fields.cwd;
  if (typeof cwd !== "string" || cwd === "") return refuse(dialect === "cursor" ? "workspace_roots" : "cwd", "expected a non-empty string");
  const event: HookEvent = { dialect, hook_event_name: name, kind: KINDS[dialect][name] ?? "other", session_id: sessionId, cwd };
  const transcript = fields.transcript_path;
  if (transcript === null) event.transcript_path = null;
  else if (typeof transcript === "string" && transcript !== "") event.transcript_path = transcript;
  else if (transcript !== undefined && transcript !== "") return refuse("transcript_path", "expected a non-empty string or null");
  for (const key of OPTIONAL) {
    const field = fields[key];
    if (typeof field === "string") event[key] = field;
    // VS Code and Gemini CLI may stamp events with a number; only the text form is kept.
    else if (key !== "timestamp" && field !== undefined && field !== null) return refuse(key, "expected a string");
  }
  if (dialect === "vscode" && event.source === "new") event.source = "startup";
  return { ok: true, event };
}

/** Cursor names the workspace's folders, not a working directory: the first is the session's. */
function cursorFolder(fields: Record<string, unknown>): unknown {
  const roots = fields.workspace_roots;
  if (Array.isArray(roots) && typeof roots[0] === "string" && roots[0] !== "") return roots[0];
  return fields.cwd;
}
