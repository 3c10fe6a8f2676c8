import { type Json, type LineReading, type TranscriptEvent, firstMeaningfulLine, isObject, planItem, str, toolArguments, used } from "./events.js";
import { classifyUserText } from "./voice.js";

/**
 * One line of a Codex rollout file: `{timestamp, type, payload}`. User messages are classified
 * (Codex injects its environment, AGENTS.md and IDE context as user messages); a `compacted`
 * line carries the summary Codex's compaction wrote (`message`, or, when empty, the summary
 * message in `replacement_history`) and starts a new segment.
 */
export function codexLine(type: string, payload: Json, timestamp: string | undefined): LineReading {
  const at = timestamp === undefined ? {} : { at: timestamp };
  switch (type) {
    case "session_meta": {
      const git = isObject(payload.git) ? payload.git : {};
      return used([{ kind: "meta", format: "codex", session_id: str(payload.id), cwd: str(payload.cwd), branch: str(git.branch) }]);
    }
    case "turn_context":
      return used(str(payload.cwd) ? [{ kind: "meta", format: "codex", cwd: str(payload.cwd) }] : []);
    case "compacted": {
      const summary = compactedSummary(payload);
      const events: TranscriptEvent[] = [{ kind: "compaction", ...at }];
      if (summary !== "") events.push({ kind: "said", voice: { kind: "summary", text: summary }, ...at });
      return used(events);
    }
    // The same user messages again (`user_message`), token counts, reasoning, turn aborts.
    case "event_msg":
      return { outcome: "skipped" };
    case "response_item":
      return responseItem(payload, at);
    default:
      return { outcome: "unknown" };
  }
}

function responseItem(payload: Json, at: { at?: string }): LineReading {
  const events: TranscriptEvent[] = [];
  switch (payload.type) {
    case "message": {
      const role = payload.role;
      if (role !== "user" && role !== "assistant") return { outcome: "skipped" };
      const text = messageText(payload.content);
      if (text.trim() === "") return { outcome: "skipped" };
      events.push(role === "user" ? { kind: "said", voice: classifyUserText(text), ...at } : { kind: "status", text, ...at });
      return used(events);
    }
    case "function_call":
      codexFunctionCall(str(payload.name) ?? "", toolArguments(payload.arguments), str(payload.call_id) ?? "", events);
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
    case "compaction":
      return { outcome: "skipped" };
    default:
      return { outcome: "unknown" };
  }
}

function messageText(content: unknown): string {
  const parts = Array.isArray(content) ? content.filter(isObject) : [];
  return parts
    .map((part) => str(part.text) ?? "")
    .filter((t) => t !== "")
    .join("\n\n");
}

/** The summary text of a `compacted` line: its message, else the summary user message it put in the new history. */
function compactedSummary(payload: Json): string {
  const message = str(payload.message) ?? "";
  if (message.trim() !== "") return message;
  const history = Array.isArray(payload.replacement_history) ? payload.replacement_history.filter(isObject) : [];
  for (const item of history) {
    if (item.type !== "message" || item.role !== "user") continue;
    const voice = classifyUserText(messageText(item.content));
    if (voice.kind === "summary") return voice.text;
  }
  return "";
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
  const parsed = toolArguments(text);
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
