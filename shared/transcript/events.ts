import type { Voice } from "./voice.js";

/**
 * What a transcript line says, once read: the few facts a handoff keeps. One line may say several
 * things (an assistant turn with tools). Pointers, not contents: a tool result yields only whether
 * it failed, its exit code and its first line; a file edit only its path.
 */
export type TranscriptEvent =
  | { kind: "meta"; format: TranscriptFormat; session_id?: string; cwd?: string; branch?: string }
  /** A user-role text, classified: the person's request, command or shell command, the agent's summary, or injected text. */
  | { kind: "said"; voice: Voice; at?: string }
  /** Claude Code's prompt queue: what the person typed while the agent worked, and what became of it. */
  | { kind: "queue"; op: "enqueue" | "dequeue" | "remove" | "popAll"; voice?: Voice; at?: string }
  /** A compaction: what follows is a new segment of the session. */
  | { kind: "compaction"; at?: string }
  | { kind: "status"; text: string; at?: string }
  | { kind: "plan"; items: PlanItem[] }
  | { kind: "edit"; path: string }
  | { kind: "command"; id: string; command: string }
  | { kind: "result"; id: string; failed: boolean; exit?: number; first_line: string };

export type TranscriptFormat = "claude-code" | "codex" | "gemini" | "cursor" | "vscode";

/** The agent that writes each format, as the handoffs it drafts name it. */
export const AGENT_OF_FORMAT: Record<TranscriptFormat, string> = { "claude-code": "Claude Code", codex: "Codex", gemini: "Gemini CLI", cursor: "Cursor", vscode: "VS Code" };

export interface PlanItem {
  text: string;
  status: "pending" | "in_progress" | "completed" | "other";
}

/** A line that was read: its events, or why none were taken. */
export type LineReading = { outcome: "used"; events: TranscriptEvent[] } | { outcome: "skipped" } | { outcome: "sidechain" } | { outcome: "unknown" } | { outcome: "malformed" };

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** A tool call's arguments: an object, or the JSON text of one (as a model's function call writes them); `{}` otherwise. */
export function toolArguments(value: unknown): Json {
  if (isObject(value)) return value;
  if (typeof value !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function used(events: TranscriptEvent[]): LineReading {
  return events.length > 0 ? { outcome: "used", events } : { outcome: "skipped" };
}

export function planItem(text: unknown, status: unknown): PlanItem {
  const known = status === "pending" || status === "in_progress" || status === "completed";
  return { text: typeof text === "string" ? text : "", status: known ? status : "other" };
}

/** Characters of a first line kept before redaction: redaction runs on this, the cut comes after. */
export const FIRST_LINE_RAW = 4096;

/**
 * The first non-blank line, bounded: the pointer to an error, never its dump. Bounded generously
 * and without a mark here: the drafter redacts it, then cuts it to what a handoff shows (a line
 * of exactly `max` characters is taken as cut, so its end is never trusted whole).
 */
export function firstMeaningfulLine(text: string, max = FIRST_LINE_RAW): string {
  const start = text.search(/\S/);
  if (start < 0) return "";
  const end = text.indexOf("\n", start);
  return (end < 0 ? text.slice(start, start + max) : text.slice(start, Math.min(end, start + max))).trim();
}
