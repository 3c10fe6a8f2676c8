import { describe, expect, it } from "vitest";
import { agentOfSummary, sessionStartOutput, startupContext } from "../../../shared/hook/decide.js";
import { hookEventName, parseHookEvent } from "../../../shared/hook/event.js";
import { codexEvents, cursorEvents, geminiEvents, vscodeEvents } from "../../helpers/hook-events.js";

// One reader for five agents' hook events: each agent's documented payloads (the sources are
// named in test/helpers/hook-events.ts) read into one shape, the dialect told from the payload.

const parse = (event: Record<string, unknown>) => {
  const parsed = parseHookEvent(JSON.stringify(event));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.event;
};

describe("the dialect, from the payload itself", () => {
  it("Claude Code's events (code.claude.com/docs/en/hooks)", () => {
    const base = { session_id: "s", transcript_path: "/t.jsonl", cwd: "/r", permission_mode: "default" };
    expect(parse({ ...base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" })).toMatchObject({ dialect: "claude", kind: "pre-compact", trigger: "auto" });
    expect(parse({ ...base, hook_event_name: "PostCompact", trigger: "manual", compact_summary: "x" })).toMatchObject({ kind: "post-compact", compact_summary: "x" });
    expect(parse({ ...base, hook_event_name: "SessionEnd", reason: "logout" })).toMatchObject({ kind: "session-end", reason: "logout" });
    expect(parse({ ...base, hook_event_name: "SessionStart", source: "compact", model: "claude-sonnet-4-5" })).toMatchObject({ kind: "session-start", source: "compact" });
    // Claude Code's Stop ends a turn, not the session: not one this tool acts on.
    expect(parse({ ...base, hook_event_name: "Stop", stop_hook_active: false })).toMatchObject({ dialect: "claude", kind: "other" });
  });

  it("Codex's events (codex-rs/hooks/src/schema.rs): a null transcript_path is kept, fork is a source", () => {
    const codex = codexEvents({ sessionId: "c1", transcriptPath: null, cwd: "/r" });
    expect(parse(codex.sessionStart("fork"))).toMatchObject({ dialect: "claude", kind: "session-start", source: "fork", transcript_path: null });
    expect(parse(codex.sessionEnd())).toMatchObject({ kind: "session-end", reason: "other" });
    expect(parse(codex.preCompact())).toMatchObject({ kind: "pre-compact", trigger: "auto" });
  });

  it("Gemini CLI's events: PreCompress is its pre-compaction, the timestamp tells it apart", () => {
    const gemini = geminiEvents({ sessionId: "g1", transcriptPath: "/h/.gemini/tmp/app/chats/session-x.jsonl", cwd: "/r" });
    expect(parse(gemini.preCompress("manual"))).toMatchObject({ dialect: "gemini", kind: "pre-compact", trigger: "manual", session_id: "g1", cwd: "/r" });
    expect(parse(gemini.sessionEnd("exit"))).toMatchObject({ dialect: "gemini", kind: "session-end", reason: "exit" });
    expect(parse(gemini.sessionStart("clear"))).toMatchObject({ dialect: "gemini", kind: "session-start", source: "clear" });
    // Gemini CLI sends an empty transcript_path when it records no chat: as if none were named.
    expect(parse({ ...gemini.sessionEnd(), transcript_path: "" }).transcript_path).toBeUndefined();
  });

  it("Cursor's events: workspace_roots for the folder, conversation_id for the session (its session_id comes only at start and end)", () => {
    const cursor = cursorEvents({ conversationId: "conv-1", workspace: "/home/dev/app", transcriptPath: null });
    const pre = parse(cursor.preCompact());
    expect(pre).toMatchObject({ dialect: "cursor", kind: "pre-compact", session_id: "conv-1", cwd: "/home/dev/app", transcript_path: null, trigger: "auto" });
    expect(parse(cursor.sessionEnd("window_close"))).toMatchObject({ dialect: "cursor", kind: "session-end", session_id: "conv-1", reason: "window_close" });
    expect(parse(cursor.sessionStart())).toMatchObject({ dialect: "cursor", kind: "session-start", session_id: "conv-1" });
    // The same session across events: one automatic handoff, not two.
    expect(new Set([pre, parse(cursor.sessionEnd()), parse(cursor.sessionStart())].map((e) => e.session_id)).size).toBe(1);
    expect(parseHookEvent(JSON.stringify({ ...cursor.preCompact(), workspace_roots: [] }))).toMatchObject({ ok: false, reason: expect.stringContaining("workspace_roots") });
  });

  it("VS Code's events: camelCase sessionId and hookEventName, Stop is its session end, source new reads as startup", () => {
    const vscode = vscodeEvents({ sessionId: "v1", transcriptPath: "/ws/transcripts/v1.jsonl", cwd: "/r" });
    expect(parse(vscode.sessionStart())).toMatchObject({ dialect: "vscode", kind: "session-start", session_id: "v1", source: "startup" });
    expect(parse(vscode.stop())).toMatchObject({ dialect: "vscode", kind: "session-end", hook_event_name: "Stop" });
    expect(parse(vscode.preCompact())).toMatchObject({ dialect: "vscode", kind: "pre-compact", trigger: "auto" });
    expect(parse(vscode.preToolUse("read_file", { filePath: "/r/a.ts" }))).toMatchObject({ dialect: "vscode", kind: "other" });
    expect(parse(vscode.stop()).timestamp).toMatch(/^2026-12-02T10:30:/);
  });

  it("refuses what no agent sends, naming the field", () => {
    expect(parseHookEvent(JSON.stringify({ hookEventName: "Stop", cwd: "/r" }))).toMatchObject({ ok: false, reason: expect.stringContaining("sessionId") });
    expect(parseHookEvent(JSON.stringify({ hook_event_name: "preCompact", workspace_roots: ["/r"] }))).toMatchObject({ ok: false, reason: expect.stringContaining("conversation_id or session_id") });
    expect(parseHookEvent(JSON.stringify({ hook_event_name: "PreCompact", session_id: "s" }))).toMatchObject({ ok: false, reason: expect.stringContaining("cwd") });
  });
});

describe("the answer, in each agent's shape", () => {
  it("hookSpecificOutput with hookEventName for Claude Code, Codex, Gemini CLI and VS Code; additional_context for Cursor", () => {
    for (const dialect of ["claude", "gemini", "vscode"] as const) {
      expect(sessionStartOutput("ctx", dialect)).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } });
    }
    expect(sessionStartOutput("ctx", "cursor")).toEqual({ additional_context: "ctx" });
  });
});

describe("which agent a handoff was drafted in", () => {
  it("is read from its summary's opening words only, one of five names", () => {
    expect(agentOfSummary("Drafted before compaction (auto) from a Gemini CLI session's transcript; the task: x.")).toBe("Gemini CLI");
    expect(agentOfSummary("Drafted at session end (completed) from a Cursor session's checkout: its transcript could not be read")).toBe("Cursor");
    expect(agentOfSummary("Drafted from a VS Code session's transcript.")).toBe("VS Code");
    expect(agentOfSummary("Token refresh is half done; drafted from a Codex session's transcript")).toBeUndefined();
    expect(agentOfSummary("Drafted from a Evil\nIGNORE session's transcript")).toBeUndefined();
    expect(agentOfSummary(null)).toBeUndefined();
  });

  it("SessionStart names it beside each handoff", () => {
    const context = startupContext(
      [
        { title: "Fix login", path: "/s/fix-login.md", created_ms: 0, agent: "Codex" },
        { title: "Mine", path: "/s/mine.md" },
      ],
      3_600_000,
    );
    expect(context?.split("\n").slice(1)).toEqual(["- \"Fix login\", 1 hour ago, from a Codex session: handoff resume '/s/fix-login.md'", "- \"Mine\": handoff resume '/s/mine.md'"]);
  });
});

describe("the guard's question", () => {
  it("the event's name in either spelling, nothing else read", () => {
    expect(hookEventName(JSON.stringify({ hookEventName: "SessionStart" }))).toBe("SessionStart");
    expect(hookEventName(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Read" }))).toBe("PreToolUse");
    expect(hookEventName(JSON.stringify({ tool_name: "Read" }))).toBeUndefined();
    expect(hookEventName("{torn")).toBeUndefined();
    expect(hookEventName("[]")).toBeUndefined();
  });
});
