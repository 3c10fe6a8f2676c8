import { type Json, type TranscriptEvent, firstMeaningfulLine, isObject, planItem, str } from "./events.js";
import { classifyUserText } from "./voice.js";

/**
 * Gemini CLI's sessions, in its two shapes (packages/core/src/services/chatRecordingService.ts):
 * - a pretty-printed `session-*.json`: `{sessionId, projectHash, startTime, lastUpdated, messages[]}`;
 * - the current `~/.gemini/tmp/<project>/chats/session-*.jsonl`: a metadata line
 *   (`{sessionId, projectHash, startTime, ...}`), message records `{id, timestamp, type:
 *   "user"|"gemini"|"info"|"error"|"warning", content, displayContent?, toolCalls?, thoughts?}`
 *   (a record written again under the same id replaces it), `{"$set": {...}}` metadata updates
 *   (one holding `messages` is a checkpoint: the session is those messages from then on; Gemini
 *   CLI writes one when it rewrites its history, after a compression) and `{"$rewindTo": id}`,
 *   which drops that message and every later one (an id it does not know drops them all). A
 *   legacy record migrated onto one line is a metadata line that holds its `messages`.
 * A message becomes events once, when it is known final: {@link GeminiSession} keeps each
 * message's events by id, in order, and replays them when the file has been read.
 */

/** Gemini CLI's tools that change files, and where each names its file. */
const EDIT_TOOLS: Record<string, string[]> = {
  write_file: ["file_path", "absolute_path", "path"],
  replace: ["file_path", "absolute_path", "path"],
  edit: ["file_path", "absolute_path", "path"],
};

/** The events one Gemini CLI message record says. */
export function geminiMessageEvents(record: Json): TranscriptEvent[] {
  const at = str(record.timestamp) === undefined ? {} : { at: str(record.timestamp) as string };
  const events: TranscriptEvent[] = [];
  if (record.type === "user") {
    // What the person saw (and typed) when the recorded content differs: @file references are expanded in content.
    const text = partsText(record.displayContent ?? record.content);
    if (text.trim() !== "") events.push({ kind: "said", voice: classifyUserText(text), ...at });
    return events;
  }
  if (record.type !== "gemini") return events;
  for (const call of Array.isArray(record.toolCalls) ? record.toolCalls.filter(isObject) : []) toolCall(call, events);
  const text = partsText(record.content);
  if (text.trim() !== "") events.push({ kind: "status", text, ...at });
  return events;
}

function toolCall(call: Json, events: TranscriptEvent[]): void {
  const name = str(call.name) ?? "";
  const args = isObject(call.args) ? call.args : {};
  const pathKeys = EDIT_TOOLS[name];
  if (pathKeys !== undefined) {
    const path = pathKeys.map((key) => str(args[key])).find((p) => p !== undefined && p !== "");
    if (path !== undefined) events.push({ kind: "edit", path });
    return;
  }
  if (name === "write_todos" && Array.isArray(args.todos)) {
    events.push({ kind: "plan", items: args.todos.filter(isObject).map((todo) => planItem(todo.description ?? todo.content, todo.status)) });
    return;
  }
  if (name !== "run_shell_command" || typeof args.command !== "string") return;
  const id = str(call.id) ?? "";
  events.push({ kind: "command", id, command: args.command });
  const response = functionResponse(call.result);
  const output = str(response.output) ?? "";
  const error = str(response.error);
  // The shell tool reports "Exit Code: N" inside a successful call; a cancelled or failed call has an error.
  const exit = /^Exit Code: (\d+)/m.exec(output);
  const code = exit ? Number(exit[1]) : undefined;
  const failed = call.status !== "success" || error !== undefined || (code !== undefined && code !== 0);
  const shown = error ?? /^Output: (.*)$/m.exec(output)?.[1] ?? output;
  events.push({ kind: "result", id, failed, ...(code !== undefined ? { exit: code } : {}), first_line: firstMeaningfulLine(shown) });
}

function functionResponse(result: unknown): Json {
  const parts = Array.isArray(result) ? result : [result];
  for (const part of parts) {
    if (isObject(part) && isObject(part.functionResponse) && isObject(part.functionResponse.response)) return part.functionResponse.response;
  }
  return {};
}

/** The text of a `PartListUnion`: a string, a part, or parts; only `text` parts are words. */
function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => (typeof part === "string" ? part : isObject(part) && part.thought !== true ? (str(part.text) ?? "") : ""))
    .filter((t) => t !== "")
    .join("");
}

/** Whether a parsed JSON value is a Gemini CLI session document (the pretty-printed `.json`). */
export function isGeminiDocument(value: unknown): value is Json & { messages: unknown[] } {
  return isObject(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string" && Array.isArray(value.messages);
}

/** What one line of a Gemini CLI JSONL session is. */
export type GeminiRecord =
  | { kind: "metadata"; session_id?: string; messages?: unknown[] }
  | { kind: "message"; id: string; record: Json }
  | { kind: "rewind"; id: string }
  | { kind: "set"; messages?: unknown[] }
  | { kind: "other" };

export function geminiRecord(value: unknown): GeminiRecord {
  if (!isObject(value)) return { kind: "other" };
  if (typeof value.$rewindTo === "string") return { kind: "rewind", id: value.$rewindTo };
  if (isObject(value.$set)) return Array.isArray(value.$set.messages) ? { kind: "set", messages: value.$set.messages } : { kind: "set" };
  if (typeof value.id === "string" && typeof value.type === "string") return { kind: "message", id: value.id, record: value };
  if (typeof value.sessionId === "string" && typeof value.projectHash === "string") {
    return Array.isArray(value.messages) ? { kind: "metadata", session_id: value.sessionId, messages: value.messages } : { kind: "metadata", session_id: value.sessionId };
  }
  return { kind: "other" };
}

/**
 * A Gemini CLI session read line by line: each message's events kept by id (a rewrite replaces
 * them in place, a rewind drops them and what follows), bounded to the latest `maxMessages`.
 *
 * @example
 * ```ts
 * const session = new GeminiSession();
 * session.add({ kind: "message", id: "m1", record: { id: "m1", type: "user", content: "ship it" } });
 * session.events() // [{ kind: "said", voice: { kind: "typed", text: "ship it" } }]
 * ```
 */
export class GeminiSession {
  private readonly messages = new Map<string, TranscriptEvent[]>();
  session_id: string | undefined;
  /** Messages that left the bound, oldest first (counted: the draft says so). */
  dropped = 0;

  constructor(private readonly maxMessages = 20_000) {}

  add(record: GeminiRecord): boolean {
    switch (record.kind) {
      case "metadata":
        this.session_id ??= record.session_id;
        for (const message of record.messages ?? []) this.addMessage(message);
        return true;
      case "message":
        this.setMessage(record.id, record.record);
        return true;
      case "rewind": {
        // As Gemini CLI reads it: from that message on; a rewind to an unknown id empties the session.
        if (!this.messages.has(record.id)) this.messages.clear();
        let found = false;
        for (const id of [...this.messages.keys()]) {
          if (id === record.id) found = true;
          if (found) this.messages.delete(id);
        }
        return true;
      }
      case "set":
        // A checkpoint: the session is these messages from now on.
        if (record.messages !== undefined) {
          this.messages.clear();
          for (const message of record.messages) this.addMessage(message);
        }
        return true;
      default:
        return false;
    }
  }

  private addMessage(value: unknown): void {
    const record = geminiRecord(value);
    if (record.kind === "message") this.setMessage(record.id, record.record);
  }

  private setMessage(id: string, record: Json): void {
    this.messages.set(id, geminiMessageEvents(record));
    if (this.messages.size > this.maxMessages) {
      this.messages.delete(this.messages.keys().next().value as string);
      this.dropped++;
    }
  }

  events(): TranscriptEvent[] {
    const meta: TranscriptEvent = { kind: "meta", format: "gemini", ...(this.session_id ? { session_id: this.session_id } : {}) };
    return [meta, ...[...this.messages.values()].flat()];
  }
}
