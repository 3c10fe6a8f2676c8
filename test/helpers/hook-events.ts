// Hook events as each agent writes them on a hook's stdin, field for field as its documentation
// or source says (the source is named beside each builder). Tests send these through the command
// each integration registers (`handoff hook`, `handoff guard`) and check what comes back.

/** The session every guard test's events belong to. */
const SESSION_ID = "5f0c2a9e-1b7d-4c3e-9a61-2f8e7d6c5b4a";

/** A PreToolUse event, as JSON: `tool_name` about to run with `tool_input`, from `cwd`. */
export function preToolUseEvent(tool_name: string, tool_input: Record<string, unknown>, where: { cwd: string; transcriptPath: string }): string {
  return JSON.stringify({
    session_id: SESSION_ID,
    transcript_path: where.transcriptPath,
    cwd: where.cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
    tool_use_id: "toolu_01ABC123",
  });
}

type Event = Record<string, unknown>;

/**
 * Gemini CLI (google-gemini/gemini-cli, packages/core/src/hooks/types.ts and hookEventHandler.ts's
 * createBaseInput; docs/hooks/reference.md): `session_id`, `transcript_path` (its chat file),
 * `cwd`, `hook_event_name`, `timestamp` (ISO 8601), plus `source` (SessionStart: startup,
 * resume, clear), `trigger` (PreCompress: auto, manual), `reason` (SessionEnd: exit, clear,
 * logout, prompt_input_exit, other). Gemini CLI 0.61 sent exactly these keys when
 * scripts/check-agent-packages.js ran it with the extension installed.
 */
export function geminiEvents(session: { sessionId: string; transcriptPath: string; cwd: string }) {
  let tick = 0;
  const base = (name: string): Event => ({
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    hook_event_name: name,
    timestamp: `2026-12-02T01:37:${String(46 + tick++).padStart(2, "0")}.640Z`,
  });
  return {
    sessionStart: (source: "startup" | "resume" | "clear" = "startup") => ({ ...base("SessionStart"), source }),
    preCompress: (trigger: "auto" | "manual" = "auto") => ({ ...base("PreCompress"), trigger }),
    sessionEnd: (reason: "exit" | "clear" | "logout" | "prompt_input_exit" | "other" = "exit") => ({ ...base("SessionEnd"), reason }),
  };
}

/**
 * Cursor (cursor.com/docs/hooks, "Hook input"): every event carries `conversation_id`,
 * `generation_id`, `model`, `hook_event_name`, `cursor_version`, `workspace_roots`, `user_email`
 * and `transcript_path` (null when there is none, as its command-line agent always sends);
 * `sessionStart` adds `session_id`, `is_background_agent`, `composer_mode`; `sessionEnd` adds
 * `session_id`, `reason` (completed, aborted, error, window_close, user_close), `duration_ms`,
 * `is_background_agent`, `final_status`; `preCompact` adds `trigger`, `context_usage_percent`,
 * `context_tokens`, `context_window_size`, `message_count`, `messages_to_compact`,
 * `is_first_compaction`. Note: no `cwd`, and `session_id` only at a session's start and end.
 */
export function cursorEvents(session: { conversationId: string; workspace: string; transcriptPath: string | null }) {
  const base = (name: string): Event => ({
    conversation_id: session.conversationId,
    generation_id: "7a1c8a5e-0000-4000-8000-000000000001",
    model: "claude-4.5-sonnet",
    hook_event_name: name,
    cursor_version: "2.4.21",
    workspace_roots: [session.workspace],
    user_email: "dev@example.com",
    transcript_path: session.transcriptPath,
  });
  return {
    sessionStart: () => ({ ...base("sessionStart"), session_id: session.conversationId, is_background_agent: false, composer_mode: "agent" }),
    preCompact: () => ({
      ...base("preCompact"),
      trigger: "auto",
      context_usage_percent: 85,
      context_tokens: 170_000,
      context_window_size: 200_000,
      message_count: 45,
      messages_to_compact: 30,
      is_first_compaction: true,
    }),
    sessionEnd: (reason = "completed") => ({ ...base("sessionEnd"), session_id: session.conversationId, reason, duration_ms: 5505, is_background_agent: false, final_status: "completed" }),
  };
}

/**
 * VS Code agent hooks (code.visualstudio.com/docs/copilot/customization/hooks; the types in
 * microsoft/vscode-copilot-chat src/platform/chat/common/chatHookService.ts): every event carries
 * `timestamp`, `cwd`, `sessionId`, `hookEventName` (camelCase keys) and `transcript_path`;
 * SessionStart adds `source`, always "new"; Stop (VS Code's end of a session) adds
 * `stop_hook_active`; PreCompact adds `trigger` ("auto"); PreToolUse adds `tool_name`,
 * `tool_input`, `tool_use_id`. VS Code ignores matchers: every registered hook gets every event.
 */
export function vscodeEvents(session: { sessionId: string; transcriptPath: string; cwd: string }) {
  let tick = 0;
  const base = (name: string): Event => ({
    timestamp: `2026-12-02T10:30:${String(tick++).padStart(2, "0")}.000Z`,
    cwd: session.cwd,
    sessionId: session.sessionId,
    hookEventName: name,
    transcript_path: session.transcriptPath,
  });
  return {
    sessionStart: () => ({ ...base("SessionStart"), source: "new" }),
    preCompact: () => ({ ...base("PreCompact"), trigger: "auto" }),
    stop: () => ({ ...base("Stop"), stop_hook_active: false }),
    preToolUse: (tool_name: string, tool_input: Event) => ({ ...base("PreToolUse"), tool_name, tool_input, tool_use_id: "tool-123" }),
    userPromptSubmit: (prompt: string) => ({ ...base("UserPromptSubmit"), prompt }),
  };
}

/**
 * Codex (openai/codex, codex-rs/hooks/src/schema.rs): SessionStart's input is `session_id`,
 * `transcript_path` (nullable), `cwd`, `hook_event_name`, `model`, `permission_mode`, `source`
 * (startup, resume, clear, compact, fork); SessionEnd's is `session_id`, `transcript_path`,
 * `cwd`, `hook_event_name`, `reason` (always "other").
 */
export function codexEvents(session: { sessionId: string; transcriptPath: string | null; cwd: string }) {
  const base = (name: string): Event => ({ session_id: session.sessionId, transcript_path: session.transcriptPath, cwd: session.cwd, hook_event_name: name });
  return {
    sessionStart: (source = "startup") => ({ ...base("SessionStart"), model: "gpt-5-codex", permission_mode: "default", source }),
    preCompact: () => ({ ...base("PreCompact"), turn_id: "t1", model: "gpt-5-codex", trigger: "auto" }),
    sessionEnd: () => ({ ...base("SessionEnd"), reason: "other" }),
  };
}
