// Hook events as Claude Code writes them on a hook's stdin, for tests that run `handoff guard`.

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
