/**
 * One line of an agent's session transcript, read as the few facts a handoff keeps. Two formats:
 *
 * - Claude Code's JSONL transcript (the file hooks get as `transcript_path`): `user` and
 *   `assistant` lines whose `message.content` is a string or blocks (`text`, `thinking`,
 *   `tool_use`, `tool_result`), and line types a handoff has no use for (`progress`, `system`,
 *   `summary`, `file-history-snapshot`, `queue-operation`).
 * - Codex's rollout file (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type,
 *   payload}` lines, `session_meta`, `turn_context`, `response_item` (messages, `function_call`,
 *   `custom_tool_call` and their outputs), `event_msg` and `compacted`.
 *
 * Pointers, not contents: a tool result yields only whether it failed, its exit code and its
 * first line; a file edit only its path. Everything else is dropped here, before it is kept.
 */

/** What a line says, once read. One line may say several things (an assistant turn with tools). */
export type TranscriptEvent =
  | { kind: "meta"; format: TranscriptFormat; session_id?: string; cwd?: string; branch?: string }
  | { kind: "request"; text: string; at?: string }
  | { kind: "status"; text: string; at?: string }
  | { kind: "plan"; items: PlanItem[] }
  | { kind: "edit"; path: string }
  | { kind: "command"; id: string; command: string }
  | { kind: "result"; id: string; failed: boolean; exit?: number; first_line: string };

export type TranscriptFormat = "claude-code" | "codex";

export interface PlanItem {
  text: string;
  status: "pending" | "in_progress" | "completed" | "other";
}

/** A line that was read: its events, or why none were taken. */
export type LineReading = { outcome: "used"; events: TranscriptEvent[] } | { outcome: "skipped" } | { outcome: "sidechain" } | { outcome: "unknown" } | { outcome: "malformed" };

/** Line types each format writes that a handoff has no use for: skipped, not "unknown". */
const CLAUDE_SKIPPED = new Set(["progress", "system", "summary", "file-history-snapshot", "queue-operation", "attachment", "custom-title"]);
const CODEX_SKIPPED = new Set(["event_msg", "compacted"]);

/** Claude Code's file-changing tools, and where each names its file. */
const EDIT_TOOLS: Record<string, string> = { Edit: "file_path", Write: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };

/** Text an agent injects as a user turn that the user did not type. */
const NOT_TYPED_BY_USER =
  /^\s*(<command-(name|message|args)>|<local-command-|<environment_context>|<user_instructions>|<user_shell_command>|<turn_aborted>|# AGENTS\.md instructions|Caveat: |\[Request interrupted)/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Reads one transcript line (without its newline).
 *
 * @example
 * ```ts
 * readTranscriptLine('{"type":"user","message":{"role":"user","content":"fix the login bug"}}')
 * // { outcome: "used", events: [{ kind: "request", text: "fix the login bug" }] }
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
  if (!isObject(value) || typeof value.type !== "string") return { outcome: "malformed" };
  if ("payload" in value && isObject(value.payload)) return codexLine(value.type, value.payload, str(value.timestamp));
  return claudeLine(value);
}

function used(events: TranscriptEvent[]): LineReading {
  return events.length > 0 ? { outcome: "used", events } : { outcome: "skipped" };
}

function claudeLine(line: Json): LineReading {
  const type = line.type as string;
  if (CLAUDE_SKIPPED.has(type)) return { outcome: "skipped" };
  if (type !== "user" && type !== "assistant") return { outcome: "unknown" };
  // A subagent's turns are its own conversation, not the session's.
  if (line.isSidechain === true) return { outcome: "sidechain" };
  if (!isObject(line.message)) return { outcome: "malformed" };
  const events: TranscriptEvent[] = [];
  const cwd = str(line.cwd);
  if (cwd !== undefined) events.push({ kind: "meta", format: "claude-code", session_id: str(line.sessionId), cwd, branch: str(line.gitBranch) });
  // Injected turns: slash-command echoes, the compaction summary, hook and system reminders.
  if (line.isMeta === true || line.isCompactSummary === true) return used(events);
  const at = str(line.timestamp);
  const content = line.message.content;
  if (typeof content === "string") {
    pushText(events, type === "user" ? "request" : "status", content, at);
    return used(events);
  }
  if (!Array.isArray(content)) return { outcome: "malformed" };
  const texts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "tool_use") claudeToolUse(block, events);
    else if (block.type === "tool_result") events.push(claudeToolResult(block));
    // thinking, images and anything newer: not kept.
  }
  if (texts.length > 0) pushText(events, type === "user" ? "request" : "status", texts.join("\n\n"), at);
  return used(events);
}

function pushText(events: TranscriptEvent[], kind: "request" | "status", text: string, at: string | undefined): void {
  if (text.trim() === "" || (kind === "request" && NOT_TYPED_BY_USER.test(text))) return;
  events.push(at === undefined ? { kind, text } : { kind, text, at });
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
  const text =
    typeof block.content === "string"
      ? block.content
      : Array.isArray(block.content)
        ? block.content
            .filter(isObject)
            .map((part) => str(part.text) ?? "")
            .join("\n")
        : "";
  // Claude Code's Bash results start "Exit code N" when the command failed.
  const exit = /^Exit code (\d+)/.exec(text);
  const failed = block.is_error === true || exit !== null;
  const firstLine = firstMeaningfulLine(exit ? text.slice(exit[0].length) : text);
  return { kind: "result", id: str(block.tool_use_id) ?? "", failed, ...(exit ? { exit: Number(exit[1]) } : {}), first_line: firstLine };
}

function codexLine(type: string, payload: Json, at: string | undefined): LineReading {
  if (CODEX_SKIPPED.has(type)) return { outcome: "skipped" };
  if (type === "session_meta") {
    const git = isObject(payload.git) ? payload.git : {};
    return used([{ kind: "meta", format: "codex", session_id: str(payload.id), cwd: str(payload.cwd), branch: str(git.branch) }]);
  }
  if (type === "turn_context") return used(str(payload.cwd) ? [{ kind: "meta", format: "codex", cwd: str(payload.cwd) }] : []);
  if (type !== "response_item") return { outcome: "unknown" };
  const events: TranscriptEvent[] = [];
  switch (payload.type) {
    case "message": {
      const role = payload.role;
      if (role !== "user" && role !== "assistant") return { outcome: "skipped" };
      const parts = Array.isArray(payload.content) ? payload.content.filter(isObject) : [];
      const text = parts
        .map((part) => str(part.text) ?? "")
        .filter((t) => t !== "")
        .join("\n\n");
      pushText(events, role === "user" ? "request" : "status", text, at);
      return used(events);
    }
    case "function_call":
      codexFunctionCall(str(payload.name) ?? "", parseArguments(payload.arguments), str(payload.call_id) ?? "", events);
      return used(events);
    case "custom_tool_call":
      if (payload.name === "apply_patch") pushPatchPaths(str(payload.input) ?? "", events);
      return used(events);
    case "function_call_output":
    case "custom_tool_call_output":
      events.push(codexOutput(str(payload.call_id) ?? "", payload.output));
      return used(events);
    case "reasoning":
    case "local_shell_call":
    case "web_search_call":
      return { outcome: "skipped" };
    default:
      return { outcome: "unknown" };
  }
}

function parseArguments(value: unknown): Json {
  if (isObject(value)) return value;
  if (typeof value !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function codexFunctionCall(name: string, args: Json, id: string, events: TranscriptEvent[]): void {
  if (name === "update_plan" && Array.isArray(args.plan)) {
    events.push({ kind: "plan", items: args.plan.filter(isObject).map((step) => planItem(step.step, step.status)) });
  } else if (name === "apply_patch") {
    pushPatchPaths(str(args.input) ?? str(args.patch) ?? "", events);
  } else if (name === "shell" || name === "exec_command" || name === "shell_command" || name === "container.exec") {
    const command = Array.isArray(args.command) ? shellWords(args.command) : (str(args.command) ?? str(args.cmd));
    if (command === undefined) return;
    // `apply_patch` run through the shell is still an edit.
    const patch = Array.isArray(args.command) && args.command[0] === "apply_patch" ? str(args.command[1]) : undefined;
    if (patch !== undefined) pushPatchPaths(patch, events);
    else events.push({ kind: "command", id, command });
  }
}

/** `["bash", "-lc", "npm test"]` reads as `npm test`: the shell wrapper says nothing. */
function shellWords(words: unknown[]): string | undefined {
  const parts = words.filter((w): w is string => typeof w === "string");
  if (parts.length === 3 && /^(ba|z)?sh$/.test(parts[0] ?? "") && /^-l?c$/.test(parts[1] ?? "")) return parts[2];
  return parts.length > 0 ? parts.join(" ") : undefined;
}

const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

function pushPatchPaths(patch: string, events: TranscriptEvent[]): void {
  for (const match of patch.matchAll(PATCH_FILE)) {
    const path = (match[1] ?? match[2] ?? "").trim();
    if (path !== "") events.push({ kind: "edit", path });
  }
}

/**
 * Codex's tool output: a JSON string `{output, metadata: {exit_code}}`, or plain text that
 * starts "Exit code: N" (newer shells), or anything else (success unless it says otherwise).
 */
function codexOutput(id: string, output: unknown): TranscriptEvent {
  let text = typeof output === "string" ? output : isObject(output) ? (str(output.content) ?? "") : "";
  let exit: number | undefined;
  const parsed = parseArguments(text);
  if (isObject(parsed.metadata) && typeof parsed.metadata.exit_code === "number") {
    exit = parsed.metadata.exit_code;
    text = str(parsed.output) ?? "";
  } else {
    const match = /^Exit code: (\d+)/m.exec(text);
    if (match) {
      exit = Number(match[1]);
      const body = /^Output:\n/m.exec(text);
      text = body ? text.slice(body.index + body[0].length) : "";
    }
  }
  const failed = exit !== undefined && exit !== 0;
  return { kind: "result", id, failed, ...(exit !== undefined ? { exit } : {}), first_line: firstMeaningfulLine(text) };
}

function planItem(text: unknown, status: unknown): PlanItem {
  const known = status === "pending" || status === "in_progress" || status === "completed";
  return { text: typeof text === "string" ? text : "", status: known ? status : "other" };
}

/** The first non-blank line, bounded: the pointer to an error, never its dump. */
export function firstMeaningfulLine(text: string, max = 200): string {
  const start = text.search(/\S/);
  if (start < 0) return "";
  const end = text.indexOf("\n", start);
  const line = (end < 0 ? text.slice(start) : text.slice(start, end)).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
