import type { TranscriptDraft } from "./drafter.js";
import type { PlanItem } from "./line.js";

export interface DraftBodyOptions {
  /**
   * Folders whose paths are written relative (the repository's top level, the session's cwd),
   * the first that holds a path wins. Any other absolute path is labelled machine-local.
   */
  roots: string[];
  /** The transcript's own path, named as a machine-local reference. */
  transcriptPath?: string;
  /** Why this was drafted, for the opening line ("before compaction", "at session end"). */
  occasion?: string;
}

const TITLE_CHARS = 80;
/** Changed files listed in the body: the most recent; the rest are counted. */
const LISTED_EDITS = 40;

/**
 * One sentence that tells this draft apart in a shortlist: when and what it was drafted from,
 * and the agent's last status (or the user's latest request).
 *
 * @example
 * ```ts
 * draftSummary({ status: { text: "Tax is added. Rounding fails." }, ... }, "before compaction (auto)")
 * // "Drafted before compaction (auto) from the session's transcript; the agent's last status: Tax is added."
 * ```
 */
export function draftSummary(draft: TranscriptDraft, occasion?: string): string {
  const when = `Drafted${occasion ? ` ${occasion}` : ""} from the session's transcript`;
  const status = draft.status ? firstSentence(draft.status.text) : undefined;
  if (status) return `${when}; the agent's last status: ${status}`;
  const request = draft.requests[0];
  return request ? `${when}; the user's latest request: ${firstSentence(request.text)}` : `${when}.`;
}

function firstSentence(text: string): string {
  const flat = oneLine(text, 200);
  const end = flat.search(/[.!?](\s|$)/);
  return end >= 0 ? flat.slice(0, end + 1) : flat.endsWith("…") ? flat : `${flat}.`;
}

/**
 * A pointer-first ce-handoff/v1 body from a transcript draft: the user's requests quoted and
 * attributed, the agent's last status marked as its words, the latest plan, changed files as
 * repository-relative paths, failed commands with their exit and first error line. Headings
 * are the ones resume's orientation recognises, so the draft is sufficient when the session
 * said what it was for and where it stands. Redaction is the caller's: `create` scans the body.
 *
 * @example
 * ```ts
 * draftBody({ requests: [{ text: "fix the login bug" }], edited: ["/repo/src/login.ts"], ... }, { roots: ["/repo"] })
 * // "# fix the login bug\n\n...\n## Files changed in the session\n\n- `src/login.ts`\n..."
 * ```
 */
export function draftBody(draft: TranscriptDraft, options: DraftBodyOptions): string {
  const latest = draft.requests[0];
  const out: string[] = [`# ${latest ? oneLine(latest.text, TITLE_CHARS) : "Session handoff drafted from a transcript"}`, ""];
  // The first sentence is what discovery shows as the summary: say what this is and where it stands.
  out.push(draftSummary(draft, options.occasion), "");
  const source = draft.format === "codex" ? "Codex rollout file" : draft.format === "claude-code" ? "Claude Code transcript" : "transcript";
  out.push(`Drafted from the session's ${source}, not written by the agent: quoted requests are the user's words, the status is the agent's, and nothing here was verified.`, "");

  if (draft.requests.length > 0) {
    out.push("## Objective and current intent", "", `The user's ${draft.requests.length === 1 ? "request" : `latest ${draft.requests.length} requests, latest first`} (their words):`, "");
    for (const request of draft.requests) out.push(quote(request.text), `> (the user${request.at ? `, ${request.at}` : ""})`, "");
  }

  const open = (draft.plan ?? []).filter((item) => item.status !== "completed");
  if (draft.status || draft.plan) {
    out.push("## Where things stand", "");
    if (draft.status) out.push(`The agent's last status (its words, unconfirmed${draft.status.at ? `, ${draft.status.at}` : ""}):`, "", quote(draft.status.text), "");
    if (draft.plan && draft.plan.length > 0) {
      out.push("The session's latest plan:", "", ...draft.plan.map(planLine), "");
    }
  }
  if (open.length > 0) {
    out.push("## Unfinished work", "", ...open.map((item) => `- ${oneLine(item.text, 300)} (${statusWord(item.status)})`), "");
  }

  if (draft.edited.length > 0) {
    const shown = draft.edited.slice(-LISTED_EDITS).reverse();
    const more = draft.edited.length - shown.length + draft.edited_past_limit;
    out.push("## Files changed in the session", "", "Most recently edited first:", "", ...shown.map((path) => `- ${pointer(path, options.roots)}`));
    if (more > 0) out.push(`- and ${more} earlier ${more === 1 ? "one" : "ones"} not listed`);
    out.push("");
  }

  if (draft.failed.length > 0) {
    out.push("## Tried and failed", "", "Commands that failed, latest first (exit code and the first line of the error; the output itself is not copied):", "");
    for (const failure of draft.failed) {
      const exit = failure.exit !== undefined ? `exited ${failure.exit}` : "failed";
      out.push(`- \`${inlineCode(failure.command)}\` ${exit}${failure.first_line ? `: ${oneLine(failure.first_line, 200)}` : ""}`);
    }
    out.push("");
  }

  out.push("## References", "");
  if (options.transcriptPath) out.push(`- The full transcript: \`${inlineCode(options.transcriptPath)}\` (machine-local: only on the machine that wrote it)`);
  if (draft.cwd) out.push(`- The session ran in \`${inlineCode(draft.cwd)}\` (machine-local)${draft.branch ? ` on branch \`${inlineCode(draft.branch)}\`` : ""}`);
  const c = draft.counts;
  out.push(`- Read ${c.lines} transcript lines: ${c.used} used, ${c.skipped} skipped, ${c.sidechain} subagent, ${c.unknown} unknown, ${c.malformed} malformed, ${c.oversized} too long to read`);
  return `${out.join("\n")}\n`;
}

/** A path as a pointer: relative to the first root it is inside, else labelled machine-local. */
export function pointer(path: string, roots: string[]): string {
  if (!path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(path)) return `\`${inlineCode(path)}\``;
  for (const root of roots) {
    const prefix = root.endsWith("/") ? root : `${root}/`;
    if (path.startsWith(prefix) && path.length > prefix.length) return `\`${inlineCode(path.slice(prefix.length))}\``;
  }
  return `\`${inlineCode(path)}\` (machine-local, outside the repository)`;
}

function planLine(item: PlanItem): string {
  const box = item.status === "completed" ? "[x]" : "[ ]";
  return `- ${box} ${oneLine(item.text, 300)} (${statusWord(item.status)})`;
}

function statusWord(status: PlanItem["status"]): string {
  return status === "in_progress" ? "in progress" : status === "other" ? "status unknown" : status;
}

/** A block quote: every line prefixed, so nothing quoted can open a section of its own. */
function quote(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Text inside a backtick span: backticks and line breaks would end or break the span. */
function inlineCode(text: string): string {
  return text.replace(/`/g, "'").replace(/\s*\n\s*/g, " ");
}
