import { type Json, type LineReading, type TranscriptEvent, isObject, str, used } from "./events.js";
import { classifyUserText, type Voice } from "./voice.js";

/**
 * Cursor's agent transcript (`~/.cursor/projects/<workspace>/agent-transcripts/<conversation
 * id>.jsonl`, the file its hooks name as `transcript_path` when they name one). Cursor does not
 * document it; what is read here is what the files hold, read defensively: one JSON object a
 * line, `{"role": "user" | "assistant", "message": {"content": [blocks]}}`, with no `type` (which
 * tells it from Claude Code's lines), blocks of `text` and, from the agent, `tool_use` with a
 * `name` and an `input` (`Write` and `StrReplace` name their file as `path`). Tool uses carry
 * no id and no result is linked to them, so a Cursor draft lists the files changed but never a
 * command that failed.
 *
 * The person's words are inside `<user_query>`; what Cursor puts around them (a `<timestamp>`,
 * attached files, rules), or in a turn of its own, is its own.
 */

/** Cursor's tools that change files, and where each names its file. */
const EDIT_TOOLS: Record<string, string[]> = {
  Write: ["path", "file_path"],
  StrReplace: ["path", "file_path"],
  Edit: ["path", "file_path"],
  MultiEdit: ["path", "file_path"],
  Delete: ["path", "file_path"],
  EditNotebook: ["target_notebook", "path"],
};

/** Whether a parsed line is written the way Cursor's transcript writes them. */
export function isCursorLine(value: Json): boolean {
  return value.type === undefined && (value.role === "user" || value.role === "assistant") && isObject(value.message);
}

/**
 * Reads one line of a Cursor agent transcript (already parsed; see {@link isCursorLine}).
 *
 * @example
 * ```ts
 * cursorLine({ role: "user", message: { content: [{ type: "text", text: "<timestamp>Mon</timestamp>\n<user_query>\nadd a logout button\n</user_query>" }] } })
 * // { outcome: "used", events: [{ kind: "meta", format: "cursor" }, { kind: "said", voice: { kind: "typed", text: "add a logout button" } }] }
 * ```
 */
export function cursorLine(line: Json): LineReading {
  const message = line.message as Json;
  const content = message.content;
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content.filter(isObject) : undefined;
  if (blocks === undefined) return { outcome: "malformed" };
  const events: TranscriptEvent[] = [{ kind: "meta", format: "cursor" }];
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "tool_use" && line.role === "assistant") toolUse(block, events);
  }
  const text = texts.join("\n\n");
  if (line.role === "assistant") {
    if (text.trim() !== "") events.push({ kind: "status", text });
  } else if (text.trim() !== "") {
    events.push({ kind: "said", voice: cursorVoice(text) });
  }
  return events.length > 1 ? used(events) : { outcome: "skipped" };
}

/**
 * The person's query inside `<user_query>`. A turn without one that opens with a tag of Cursor's
 * (`<attached_files>`, `<open_and_recently_viewed_files>`, ...) is Cursor's; plain text without
 * one (an older Cursor) is classified as it stands.
 */
function cursorVoice(text: string): Voice {
  const open = text.indexOf("<user_query>");
  if (open < 0) return /^\s*<[a-z_]+>/.test(text) ? { kind: "injected", what: "cursor-context" } : classifyUserText(text);
  const start = open + "<user_query>".length;
  const end = text.indexOf("</user_query>", start);
  const query = (end < 0 ? text.slice(start) : text.slice(start, end)).trim();
  return query === "" ? { kind: "injected", what: "cursor-context" } : classifyUserText(query);
}

function toolUse(block: Json, events: TranscriptEvent[]): void {
  const name = str(block.name) ?? "";
  const input = isObject(block.input) ? block.input : {};
  const keys = EDIT_TOOLS[name];
  if (keys === undefined) return;
  const path = keys.map((key) => str(input[key])).find((p) => p !== undefined && p !== "");
  if (path !== undefined) events.push({ kind: "edit", path });
}
