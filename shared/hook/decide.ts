import { shellQuote } from "../ce/resume-command.js";
import { describeAge } from "../discover/age.js";
import { AGENT_OF_FORMAT } from "../transcript/events.js";
import type { HookDialect } from "./event.js";
import type { AutoOrientation } from "./orientation.js";

/**
 * Pure decisions and words for `handoff hook`: whether an automatic handoff is due, and what a
 * SessionStart hook puts in front of the agent. The client reads files and the clock; this
 * module only compares values.
 */

/** At most one automatic handoff per session in this long, before compactions (PreCompact only). */
export const AUTO_MIN_INTERVAL_MS = 5 * 60 * 1000;
/** Automatic handoffs the hook wrote longer ago than this are removed when a session's first one is written. */
export const AUTO_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
/** The keyword every automatic handoff carries: discovery finds them, `prune --auto` removes them. */
export const AUTO_KEYWORD = "auto";

/** What the hook remembers of a session's automatic handoff (docs/storage.md, "Automatic handoffs"). */
export interface AutoState {
  session_id: string;
  path: string;
  written_at_ms: number;
  /** A digest of the drafted body: the same draft again means nothing changed. */
  digest: string;
  /** sha256 of the handoff file as written: only a file with exactly these bytes is the hook's to replace or remove. */
  document_sha256?: string;
  title: string;
  /** What SessionStart quotes after a compaction (already redacted). */
  orientation?: AutoOrientation;
  /** Written by earlier versions: the person's latest request, first line. */
  request?: string;
}

/** The events that write an automatic handoff. */
export type AutoEvent = "PreCompact" | "PostCompact" | "SessionEnd";

export type AutoDecision = { write: true } | { write: false; reason: string };

/**
 * Whether to write (or update) a session's automatic handoff now: never when the draft is the
 * same as last time; before a compaction at most once every few minutes (compactions can come in
 * a burst); after a compaction and at the session's end whenever it changed, so the last turn is
 * never lost.
 *
 * @example
 * ```ts
 * decideAutoHandoff(undefined, { now_ms: 0, digest: "a", event: "PreCompact" }) // { write: true }
 * decideAutoHandoff({ ..., written_at_ms: 0, digest: "a" }, { now_ms: 60_000, digest: "b", event: "PreCompact" })
 * // { write: false, reason: "an automatic handoff for this session was written 1 minute ago ..." }
 * decideAutoHandoff({ ..., written_at_ms: 0, digest: "a" }, { now_ms: 60_000, digest: "b", event: "SessionEnd" }) // { write: true }
 * ```
 */
export function decideAutoHandoff(last: AutoState | undefined, next: { now_ms: number; digest: string; event: AutoEvent }): AutoDecision {
  if (last === undefined) return { write: true };
  if (last.digest === next.digest) return { write: false, reason: `nothing changed since the automatic handoff ${last.path}` };
  const since = next.now_ms - last.written_at_ms;
  if (next.event === "PreCompact" && since >= 0 && since < AUTO_MIN_INTERVAL_MS) {
    return {
      write: false,
      reason: `an automatic handoff for this session was written ${describeAge(since)} (${last.path}); before compactions at most one every ${AUTO_MIN_INTERVAL_MS / 60_000} minutes`,
    };
  }
  return { write: true };
}

export interface StartCandidate {
  title: string | null;
  path: string;
  created_ms?: number;
  /** The agent whose session it was drafted from, when its summary says so ({@link agentOfSummary}). */
  agent?: string;
}

/** The agents a drafted handoff's summary can name (shared/transcript/render.ts writes it). */
const DRAFTED_FROM = new RegExp(`^Drafted\\b[^;]*? from an? (${Object.values(AGENT_OF_FORMAT).join("|")}) session's (?:transcript|checkout)`);

/**
 * Which agent's session a handoff was drafted from, as its summary (drafted by `handoff hook` or
 * `create --from-transcript`, from the transcript or, without one, the checkout) says: one of the
 * five names, never other words of the summary.
 *
 * @example
 * ```ts
 * agentOfSummary("Drafted before compaction (auto) from a Gemini CLI session's transcript; the task: ...") // "Gemini CLI"
 * agentOfSummary("Token refresh is half done.") // undefined
 * ```
 */
export function agentOfSummary(summary: string | null | undefined): string | undefined {
  return summary ? DRAFTED_FROM.exec(summary)?.[1] : undefined;
}

/**
 * The additional context at a session's start: the best few handoffs for this repository and
 * branch, titles, ages and the agent each was drafted in, whichever agent this one is. Nothing
 * is selected: the user chooses.
 */
export function startupContext(candidates: StartCandidate[], nowMs: number): string | undefined {
  if (candidates.length === 0) return undefined;
  const lines = [`Handoff found ${candidates.length === 1 ? "a handoff" : `${candidates.length} handoffs`} for this repository and branch (none is loaded; resume one only if the user asks):`];
  for (const c of candidates) {
    const age = c.created_ms === undefined ? "" : `, ${describeAge(Math.max(0, nowMs - c.created_ms))}`;
    const agent = c.agent === undefined ? "" : `, from a ${c.agent} session`;
    // Quoted as a JSON string: a title drafted from a transcript cannot leave its quotes.
    lines.push(`- ${JSON.stringify(c.title ?? "untitled")}${age}${agent}: handoff resume ${shellQuote(c.path)}`);
  }
  return lines.join("\n");
}

/** SessionStart's output on stdout, in the shape the agent that asked reads. */
export type SessionStartOutput = { hookSpecificOutput: { hookEventName: "SessionStart"; additionalContext: string } } | { additional_context: string };

/**
 * SessionStart's output in each agent's shape: Claude Code, Codex, Gemini CLI and VS Code read
 * `hookSpecificOutput.additionalContext` (Codex requires `hookEventName` beside it, the others
 * accept it); Cursor reads `additional_context` at the top level.
 *
 * @example
 * ```ts
 * sessionStartOutput("Handoff found a handoff ...", "claude") // { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Handoff found ..." } }
 * sessionStartOutput("Handoff found a handoff ...", "cursor") // { additional_context: "Handoff found ..." }
 * ```
 */
export function sessionStartOutput(additionalContext: string, dialect: HookDialect): SessionStartOutput {
  if (dialect === "cursor") return { additional_context: additionalContext };
  return { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext } };
}
