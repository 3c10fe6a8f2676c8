import { type Json, type LineReading, type PlanItem, type TranscriptEvent, firstMeaningfulLine, isObject, str, toolArguments, used } from "./events.js";
import { classifyUserText } from "./voice.js";

/**
 * VS Code's agent transcript (the file its hooks name as `transcript_path`, in the Copilot Chat
 * extension's `transcripts/<sessionId>.jsonl`; microsoft/vscode-copilot-chat,
 * src/extension/chat/vscode-node/sessionTranscriptService.ts): one entry a line, `{type, data,
 * id, timestamp, parentId}`, of the types
 * - `session.start`: `data.sessionId`, `data.context.cwd`;
 * - `user.message`: `data.content`, the person's prompt;
 * - `assistant.message`: `data.content`, the agent's words (its `toolRequests` run later, below);
 * - `tool.execution_start`: `data.toolCallId`, `data.toolName`, `data.arguments`;
 * - `tool.execution_complete`: `data.toolCallId`, `data.success`, `data.result.content`;
 * - `assistant.turn_start`, `assistant.turn_end` and anything newer: nothing a handoff keeps.
 * Tools are read from what ran, not from what was asked, so a call is counted once.
 */

/** VS Code's tools that change files, and where each names its file. */
const EDIT_TOOLS: Record<string, string[]> = {
  create_file: ["filePath", "path"],
  replace_string_in_file: ["filePath", "path"],
  insert_edit_into_file: ["filePath", "path"],
  edit_notebook_file: ["filePath", "path"],
  editFiles: ["filePath", "path"],
};
const SHELL_TOOLS = new Set(["run_in_terminal", "runTerminalCommand"]);

/** Whether a parsed line is a VS Code transcript entry: a dotted type with its `data`. */
export function isVscodeLine(value: Json): boolean {
  return typeof value.type === "string" && value.type.includes(".") && isObject(value.data);
}

/**
 * Reads one entry of a VS Code agent transcript (already parsed; see {@link isVscodeLine}).
 *
 * @example
 * ```ts
 * vscodeLine({ type: "user.message", data: { content: "add a logout button", attachments: [] }, timestamp: "2026-11-30T10:00:00.000Z" })
 * // { outcome: "used", events: [{ kind: "said", voice: { kind: "typed", text: "add a logout button" }, at: "2026-11-30T10:00:00.000Z" }] }
 * ```
 */
export function vscodeLine(line: Json): LineReading {
  const data = line.data as Json;
  const at = str(line.timestamp) === undefined ? {} : { at: str(line.timestamp) as string };
  switch (line.type) {
    case "session.start": {
      const cwd = isObject(data.context) ? str(data.context.cwd) : undefined;
      return used([{ kind: "meta", format: "vscode", ...(str(data.sessionId) ? { session_id: str(data.sessionId) } : {}), ...(cwd ? { cwd } : {}) }]);
    }
    case "user.message": {
      const text = str(data.content) ?? "";
      return text.trim() === "" ? { outcome: "skipped" } : used([meta(), { kind: "said", voice: classifyUserText(text), ...at }]);
    }
    case "assistant.message": {
      const text = str(data.content) ?? "";
      return text.trim() === "" ? { outcome: "skipped" } : used([meta(), { kind: "status", text, ...at }]);
    }
    case "tool.execution_start":
      return used(toolStart(data));
    case "tool.execution_complete":
      return used(toolComplete(data));
    default:
      return { outcome: "skipped" };
  }
}

/** Each entry says its format, so a transcript cut at its head (SessionEnd's window) still does. */
function meta(): TranscriptEvent {
  return { kind: "meta", format: "vscode" };
}

function toolStart(data: Json): TranscriptEvent[] {
  const name = str(data.toolName) ?? "";
  const args = toolArguments(data.arguments);
  const keys = EDIT_TOOLS[name];
  if (keys !== undefined) {
    const path = keys.map((key) => str(args[key])).find((p) => p !== undefined && p !== "");
    return path === undefined ? [] : [{ kind: "edit", path }];
  }
  if (name === "multi_replace_string_in_file" && Array.isArray(args.replacements)) {
    return [...new Set(args.replacements.filter(isObject).flatMap((r) => str(r.filePath) ?? []))].map((path) => ({ kind: "edit" as const, path }));
  }
  if (name === "manage_todo_list" && Array.isArray(args.todoList)) {
    return [{ kind: "plan", items: args.todoList.filter(isObject).map((todo) => todoItem(todo)) }];
  }
  if (SHELL_TOOLS.has(name) && typeof args.command === "string") return [{ kind: "command", id: str(data.toolCallId) ?? "", command: args.command }];
  return [];
}

/** VS Code's todo statuses are `not-started`, `in-progress` and `completed`. */
function todoItem(todo: Json): PlanItem {
  const status = todo.status === "not-started" ? "pending" : todo.status === "in-progress" ? "in_progress" : todo.status === "completed" ? "completed" : "other";
  return { text: str(todo.title) ?? str(todo.description) ?? "", status };
}

function toolComplete(data: Json): TranscriptEvent[] {
  const output = isObject(data.result) ? (str(data.result.content) ?? "") : "";
  const exit = /exit(?:ed with)? code:? (\d+)/i.exec(output);
  const code = exit ? Number(exit[1]) : undefined;
  const failed = data.success === false || (code !== undefined && code !== 0);
  return [{ kind: "result", id: str(data.toolCallId) ?? "", failed, ...(code !== undefined ? { exit: code } : {}), first_line: firstMeaningfulLine(output) }];
}
