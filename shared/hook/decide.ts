import { shellQuote } from "../ce/resume-command.js";
import { describeAge } from "../discover/age.js";

/**
 * Pure decisions and words for `handoff hook`: whether an automatic handoff is due, and what a
 * SessionStart hook puts in front of the agent. The client reads files and the clock; this
 * module only compares values.
 */

/** At most one automatic handoff per session in this long. */
export const AUTO_MIN_INTERVAL_MS = 5 * 60 * 1000;
/** Automatic handoffs older than this are removed from the store when the hook writes a new one. */
export const AUTO_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
/** The keyword every automatic handoff carries: discovery finds them, `prune --auto` removes them. */
export const AUTO_KEYWORD = "auto";

/** What the hook remembers of a session's last automatic handoff. */
export interface AutoState {
  session_id: string;
  path: string;
  written_at_ms: number;
  /** A digest of the drafted body: the same draft again means nothing changed. */
  digest: string;
  title: string;
  /** The user's latest request, first line, as written in the handoff (already redacted). */
  request?: string;
}

export type AutoDecision = { write: true } | { write: false; reason: string };

/**
 * Whether to write an automatic handoff now.
 *
 * @example
 * ```ts
 * decideAutoHandoff(undefined, { now_ms: 0, digest: "a" }) // { write: true }
 * decideAutoHandoff({ ..., written_at_ms: 0, digest: "a" }, { now_ms: 60_000, digest: "b" })
 * // { write: false, reason: "an automatic handoff for this session was written 1 minute ago ..." }
 * ```
 */
export function decideAutoHandoff(last: AutoState | undefined, next: { now_ms: number; digest: string }): AutoDecision {
  if (last === undefined) return { write: true };
  if (last.digest === next.digest) return { write: false, reason: `nothing changed since the automatic handoff ${last.path}` };
  const since = next.now_ms - last.written_at_ms;
  if (since >= 0 && since < AUTO_MIN_INTERVAL_MS) {
    return { write: false, reason: `an automatic handoff for this session was written ${describeAge(since)} (${last.path}); at most one every ${AUTO_MIN_INTERVAL_MS / 60_000} minutes` };
  }
  return { write: true };
}

/**
 * The additional context after a compaction: where the handoff written just before it is and how
 * to orient from it. A pointer, never the body.
 */
export function compactContext(state: AutoState, resumeCommand: string): string {
  const lines = [`Handoff wrote an automatic handoff of this session just before the compaction: "${state.title}".`, `Path: ${state.path}`];
  if (state.request) lines.push(`The user's latest request, in their words: "${state.request}"`);
  lines.push(`If the summary lost something (a decision, a failed approach, a file), orient from it: ${resumeCommand}`);
  return lines.join("\n");
}

export interface StartCandidate {
  title: string | null;
  path: string;
  created_ms?: number;
}

/**
 * The additional context at a session's start: the best few handoffs for this repository and
 * branch, titles and ages only. Nothing is selected: the user chooses.
 */
export function startupContext(candidates: StartCandidate[], nowMs: number): string | undefined {
  if (candidates.length === 0) return undefined;
  const lines = [`Handoff found ${candidates.length === 1 ? "a handoff" : `${candidates.length} handoffs`} for this repository and branch (none is loaded; resume one only if the user asks):`];
  for (const c of candidates) {
    const age = c.created_ms === undefined ? "" : `, ${describeAge(Math.max(0, nowMs - c.created_ms))}`;
    lines.push(`- "${c.title ?? "untitled"}"${age}: handoff resume ${shellQuote(c.path)}`);
  }
  return lines.join("\n");
}

/** SessionStart's output as Claude Code and Codex read it on stdout. */
export function sessionStartOutput(additionalContext: string): { hookSpecificOutput: { hookEventName: "SessionStart"; additionalContext: string } } {
  return { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext } };
}
