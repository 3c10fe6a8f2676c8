/**
 * Transcript lines of the agents whose formats transcripts.ts does not build: Cursor's agent
 * transcript (undocumented; the shape its files hold, as entireio/cli's Cursor integration
 * records it: `{"role", "message": {"content": [blocks]}}`, the person's words inside
 * `<user_query>`, `tool_use` blocks without ids) and VS Code's agent transcript
 * (microsoft/vscode-copilot-chat, sessionTranscriptService.ts: `{type, data, id, timestamp,
 * parentId}` entries). Each builder returns one line's JSON text.
 */

let counter = 0;
const id = () => `00000000-0000-4000-9000-${String(++counter).padStart(12, "0")}`;

export function cursorTranscript() {
  return {
    /** A typed prompt as Cursor records it: a timestamp, then the query. */
    user: (text: string) =>
      JSON.stringify({ role: "user", message: { content: [{ type: "text", text: `<timestamp>Wednesday, Dec 2, 2026, 10:00 AM</timestamp>\n<user_query>\n${text}\n</user_query>` }] } }),
    /** A user turn holding only what Cursor attached (no query of the person's). */
    attached: (text: string) => JSON.stringify({ role: "user", message: { content: [{ type: "text", text: `<attached_files>\n${text}\n</attached_files>` }] } }),
    assistant: (text: string, tools: { name: string; input: Record<string, unknown> }[] = []) =>
      JSON.stringify({ role: "assistant", message: { content: [...(text ? [{ type: "text", text }] : []), ...tools.map((t) => ({ type: "tool_use", name: t.name, input: t.input }))] } }),
    write: (path: string) => ({ name: "Write", input: { path, contents: "x" } }),
    strReplace: (path: string) => ({ name: "StrReplace", input: { path, old_string: "a", new_string: "b" } }),
    shell: (command: string) => ({ name: "Shell", input: { command, description: "run it" } }),
  };
}

export function vscodeTranscript(session: { sessionId: string; cwd: string }) {
  let parent: string | null = null;
  let second = 0;
  const entry = (type: string, data: Record<string, unknown>) => {
    const line = { type, data, id: id(), timestamp: `2026-12-02T10:00:${String(second++).padStart(2, "0")}.000Z`, parentId: parent };
    parent = line.id;
    return JSON.stringify(line);
  };
  return {
    start: () =>
      entry("session.start", {
        sessionId: session.sessionId,
        version: 1,
        producer: "copilot-agent",
        copilotVersion: "0.51.0",
        vscodeVersion: "1.111.0",
        startTime: "2026-12-02T10:00:00.000Z",
        context: { cwd: session.cwd },
      }),
    user: (content: string) => entry("user.message", { content, attachments: [] }),
    turnStart: (turnId: string) => entry("assistant.turn_start", { turnId }),
    assistant: (content: string, toolRequests: { toolCallId: string; name: string; arguments: unknown }[] = []) =>
      entry("assistant.message", { messageId: id(), content, toolRequests: toolRequests.map((t) => ({ ...t, type: "function" })) }),
    toolStart: (toolCallId: string, toolName: string, args: unknown) => entry("tool.execution_start", { toolCallId, toolName, arguments: args }),
    toolComplete: (toolCallId: string, success: boolean, content?: string) => entry("tool.execution_complete", { toolCallId, success, ...(content === undefined ? {} : { result: { content } }) }),
    turnEnd: (turnId: string) => entry("assistant.turn_end", { turnId }),
  };
}
