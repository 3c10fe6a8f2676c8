/**
 * Transcript lines as the agents write them, built from their documented formats: Claude Code's
 * JSONL transcript (the file a hook's `transcript_path` names) and Codex's rollout file. Each
 * builder returns one line's JSON text; a session is an array of them joined by newlines.
 */

let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

export interface ClaudeSession {
  sessionId: string;
  cwd: string;
  gitBranch?: string;
}

function claudeBase(session: ClaudeSession, type: "user" | "assistant", extra: Record<string, unknown> = {}) {
  return {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: session.cwd,
    sessionId: session.sessionId,
    version: "2.1.0",
    gitBranch: session.gitBranch ?? "main",
    type,
    uuid: uuid(),
    timestamp: "2026-11-30T10:00:00.000Z",
    ...extra,
  };
}

/** Builders for one Claude Code session's lines. */
export function claude(session: ClaudeSession) {
  return {
    userText: (text: string, extra: Record<string, unknown> = {}) => JSON.stringify({ ...claudeBase(session, "user", extra), message: { role: "user", content: text } }),
    userBlocks: (blocks: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ ...claudeBase(session, "user", extra), message: { role: "user", content: blocks } }),
    assistant: (blocks: unknown[], extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        ...claudeBase(session, "assistant", extra),
        requestId: `req_${counter}`,
        message: { id: `msg_${counter}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: blocks, stop_reason: null, usage: { input_tokens: 10, output_tokens: 20 } },
      }),
    text: (text: string) => ({ type: "text", text }),
    thinking: (thinking: string) => ({ type: "thinking", thinking, signature: "sig" }),
    toolUse: (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input }),
    toolResult: (id: string, content: string, isError = false) => ({ type: "tool_result", tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }),
    summary: (text: string) => JSON.stringify({ type: "summary", summary: text, leafUuid: uuid() }),
    progress: () => JSON.stringify({ type: "progress", uuid: uuid(), sessionId: session.sessionId, data: { type: "hook_progress", hookEvent: "PreToolUse" } }),
    system: (content: string) => JSON.stringify({ type: "system", subtype: "informational", content, uuid: uuid(), sessionId: session.sessionId, isMeta: false }),
    snapshot: () => JSON.stringify({ type: "file-history-snapshot", messageId: uuid(), snapshot: { trackedFileBackups: {}, timestamp: "2026-11-30T10:00:00.000Z" }, isSnapshotUpdate: false }),
    queue: () => JSON.stringify({ type: "queue-operation", operation: "enqueue", timestamp: "2026-11-30T10:00:00.000Z", sessionId: session.sessionId, content: "later" }),
  };
}

export interface CodexSession {
  id: string;
  cwd: string;
  branch?: string;
}

const codexLine = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: "2026-11-30T10:00:00.000Z", type, payload });

/** Builders for one Codex rollout file's lines. */
export function codex(session: CodexSession) {
  return {
    meta: () =>
      codexLine("session_meta", {
        id: session.id,
        timestamp: "2026-11-30T10:00:00.000Z",
        cwd: session.cwd,
        originator: "codex_cli_rs",
        cli_version: "0.60.0",
        instructions: null,
        source: "cli",
        git: { commit_hash: "0123456789abcdef0123456789abcdef01234567", branch: session.branch ?? "main", repository_url: "git@example.invalid:team/app.git" },
      }),
    turnContext: () => codexLine("turn_context", { cwd: session.cwd, approval_policy: "on-request", sandbox_policy: { mode: "workspace-write" }, model: "gpt-5-codex", summary: "auto" }),
    user: (text: string) => codexLine("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] }),
    userEvent: (text: string) => codexLine("event_msg", { type: "user_message", message: text, images: [] }),
    assistant: (text: string) => codexLine("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] }),
    reasoning: () => codexLine("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: "thinking" }], encrypted_content: "gAAAA" }),
    shell: (callId: string, command: string[]) => codexLine("response_item", { type: "function_call", name: "shell", arguments: JSON.stringify({ command, workdir: session.cwd }), call_id: callId }),
    output: (callId: string, output: string, exitCode: number) =>
      codexLine("response_item", { type: "function_call_output", call_id: callId, output: JSON.stringify({ output, metadata: { exit_code: exitCode, duration_seconds: 0.5 } }) }),
    plan: (callId: string, plan: { step: string; status: string }[]) =>
      codexLine("response_item", { type: "function_call", name: "update_plan", arguments: JSON.stringify({ plan }), call_id: callId }),
    applyPatch: (callId: string, patch: string) => codexLine("response_item", { type: "custom_tool_call", status: "completed", call_id: callId, name: "apply_patch", input: patch }),
    tokenCount: () => codexLine("event_msg", { type: "token_count", info: null }),
    compacted: () => codexLine("compacted", { message: "summary of earlier turns" }),
  };
}
