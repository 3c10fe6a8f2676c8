import { codexLine } from "./codex.js";
import { cursorLine, isCursorLine } from "./cursor.js";
import { type Json, type LineReading, type TranscriptEvent, firstMeaningfulLine, isObject, planItem, str, used } from "./events.js";
import { classifyUserText, type Voice } from "./voice.js";
import { isVscodeLine, vscodeLine } from "./vscode.js";

/**
 * One line of an agent's JSONL session transcript, read as events (events.ts). Two formats here,
 * Cursor's and VS Code's in cursor.ts and vscode.ts (Gemini CLI's, whose records can be rewritten
 * and rewound, is read by gemini.ts):
 *
 * - Claude Code's transcript (the file hooks get as `transcript_path`): `user` and `assistant`
 *   lines whose `message.content` is a string or blocks (`text`, `thinking`, `tool_use`,
 *   `tool_result`); `queue-operation` lines (prompts typed while the agent worked); `system`
 *   lines, of which `compact_boundary` marks a compaction; and types a handoff has no use for.
 * - Codex's rollout file (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type,
 *   payload}` lines, `session_meta`, `turn_context`, `response_item`, `event_msg`, `compacted`.
 *
 * Every user-role text goes through {@link classifyUserText}: who said it is decided there.
 */

export type { LineReading } from "./events.js";

/** Line types Claude Code writes that a handoff has no use for: skipped, not "unknown". */
const CLAUDE_SKIPPED = new Set(["progress", "summary", "file-history-snapshot", "attachment", "custom-title", "tag", "agent-name"]);

/** Claude Code's file-changing tools, and where each names its file. */
const EDIT_TOOLS: Record<string, string> = { Edit: "file_path", Write: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };

/**
 * Reads one transcript line (without its newline).
 *
 * @example
 * ```ts
 * readTranscriptLine('{"type":"user","message":{"role":"user","content":"fix the login bug"}}')
 * // { outcome: "used", events: [{ kind: "said", voice: { kind: "typed", text: "fix the login bug" } }] }
 * readTranscriptLine('{"type":"progress"}') // { outcome: "skipped" }
 * readTranscriptLine("{not json") // { outcome: "malformed" }
 * ```
 */
export function readTranscriptLine(line: string): LineReading {
  if (line.trim() === "") return { outcome: "skipped" };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { outcome: "malformed" };
  }
  if (!isObject(value)) return { outcome: "malformed" };
  if (isCursorLine(value)) return cursorLine(value);
  if (typeof value.type !== "string") return { outcome: "malformed" };
  if ("payload" in value && isObject(value.payload)) return codexLine(value.type, value.payload, str(value.timestamp));
  if (isVscodeLine(value)) return vscodeLine(value);
  return claudeLine(value);
}

function claudeLine(line: Json): LineReading {
  const type = line.type as string;
  if (CLAUDE_SKIPPED.has(type)) return { outcome: "skipped" };
  if (type === "queue-operation") return queueLine(line);
  if (type === "system") return line.subtype === "compact_boundary" ? used([{ kind: "compaction", ...at(line) }]) : { outcome: "skipped" };
  if (type !== "user" && type !== "assistant") return { outcome: "unknown" };
  // A subagent's turns are its own conversation, not the session's.
  if (line.isSidechain === true) return { outcome: "sidechain" };
  if (!isObject(line.message)) return { outcome: "malformed" };
  const events: TranscriptEvent[] = [];
  const cwd = str(line.cwd);
  if (cwd !== undefined) events.push({ kind: "meta", format: "claude-code", session_id: str(line.sessionId), cwd, branch: str(line.gitBranch) });
  const content = line.message.content;
  const texts: string[] = [];
  if (typeof content === "string") texts.push(content);
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
      else if (block.type === "tool_use") claudeToolUse(block, events);
      else if (block.type === "tool_result") events.push(claudeToolResult(block));
      // thinking, images and anything newer: not kept.
    }
  } else return { outcome: "malformed" };
  if (texts.length === 0) return used(events);
  const text = texts.join("\n\n");
  if (type === "assistant") {
    if (text.trim() !== "") events.push({ kind: "status", text, ...at(line) });
  } else {
    events.push({ kind: "said", voice: userVoice(line, text), ...at(line) });
  }
  return used(events);
}

/** Who said a Claude Code user line's text: the line's own flags first, then its words. */
function userVoice(line: Json, text: string): Voice {
  if (line.isCompactSummary === true) return { kind: "summary", text };
  // Slash-command expansions, caveats and hook context the agent adds as user turns.
  if (line.isMeta === true) return { kind: "injected", what: "meta" };
  return classifyUserText(text);
}

/** `{"type":"queue-operation","operation":"enqueue","content":"check again"}`: typed while the agent worked. */
function queueLine(line: Json): LineReading {
  const op = line.operation;
  if (op !== "enqueue" && op !== "dequeue" && op !== "remove" && op !== "popAll") return { outcome: "skipped" };
  if (op !== "enqueue") return used([{ kind: "queue", op, ...at(line) }]);
  const text = typeof line.content === "string" ? line.content : Array.isArray(line.content) ? blockTexts(line.content) : "";
  return used([{ kind: "queue", op, voice: classifyUserText(text), ...at(line) }]);
}

function blockTexts(blocks: unknown[]): string {
  return blocks
    .filter(isObject)
    .map((block) => (block.type === "text" ? (str(block.text) ?? "") : ""))
    .filter((text) => text !== "")
    .join("\n\n");
}

function at(line: Json): { at?: string } {
  const timestamp = str(line.timestamp);
  return timestamp === undefined ? {} : { at: timestamp };
}

function claudeToolUse(block: Json, events: TranscriptEvent[]): void {
  const name = str(block.name) ?? "";
  const input = isObject(block.input) ? block.input : {};
  const pathKey = EDIT_TOOLS[name];
  if (pathKey !== undefined) {
    const path = str(input[pathKey]);
    if (path) events.push({ kind: "edit", path });
  } else if (name === "TodoWrite" && Array.isArray(input.todos)) {
    events.push({ kind: "plan", items: input.todos.filter(isObject).map((todo) => planItem(todo.content, todo.status)) });
  } else if (name === "Bash" && typeof input.command === "string") {
    events.push({ kind: "command", id: str(block.id) ?? "", command: input.command });
  }
}

function claudeToolResult(block: Json): TranscriptEvent {
  const text = typeof block.content === "string" ? block.content : Array.isArray(block.content) ? blockTexts(block.content) : "";
  // Claude Code's Bash results start "Exit code N" when the command failed.
  const exit = /^Exit code (\d+)/.exec(text);
  const failed = block.is_error === true || exit !== null;
  const firstLine = firstMeaningfulLine(exit ? text.slice(exit[0].length) : text);
  return { kind: "result", id: str(block.tool_use_id) ?? "", failed, ...(exit ? { exit: Number(exit[1]) } : {}), first_line: firstLine };
}
