import type { Said, TranscriptDraft } from "./drafter.js";
import { AGENT_OF_FORMAT, type PlanItem } from "./events.js";
import type { SummaryRole, SummarySection } from "./summary.js";

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
/** What each agent's transcript file is called in the body's attribution line. */
const SOURCE_NAMES = {
  "claude-code": "Claude Code transcript",
  codex: "Codex rollout file",
  gemini: "Gemini CLI session file",
  cursor: "Cursor agent transcript",
  vscode: "VS Code agent transcript",
} as const;
/**
 * The body's budget: the handoff (frontmatter, and create's closing note on uncommitted work,
 * included) stays under 24 KB. A body over it is rendered again with less of the long parts
 * (the summary, the plan, changed files, the task's evolution), never without the task.
 */
export const DRAFT_BODY_MAX_BYTES = 20 * 1024;
/** How much of each long part each attempt keeps. */
const SCALES = [1, 0.5, 0.25, 0.1, 0];

/**
 * One sentence that tells this draft apart in a shortlist: when and what it was drafted from
 * (which agent's session: SessionStart names it to an agent that resumes it elsewhere, see
 * shared/hook/decide.ts), the person's task, and the agent's last status.
 *
 * @example
 * ```ts
 * draftSummary({ format: "codex", task: { text: "Add tax to the cart total" }, status: { text: "Tax is added. Rounding fails." }, ... }, "before compaction (auto)")
 * // "Drafted before compaction (auto) from a Codex session's transcript; the task: Add tax to the cart total; the agent's last status: Tax is added."
 * ```
 */
export function draftSummary(draft: TranscriptDraft, occasion?: string): string {
  const agent = draft.format === undefined ? undefined : AGENT_OF_FORMAT[draft.format];
  const from = agent === undefined ? "the session's transcript" : `${/^[AEIOU]/.test(agent) ? "an" : "a"} ${agent} session's transcript`;
  const parts = [`Drafted${occasion ? ` ${occasion}` : ""} from ${from}`];
  const task = taskOf(draft);
  if (task) parts.push(`the task: ${firstSentence(task.text)}`);
  if (draft.status) parts.push(`the agent's last status: ${firstSentence(firstLine(draft.status.text))}`);
  return `${parts.join("; ")}.`;
}

/** The person's task: their first substantive request, else the first of a later segment, else a later one. */
function taskOf(draft: TranscriptDraft): Said | undefined {
  return draft.task ?? draft.segments[0] ?? draft.evolution[0];
}

function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "") ?? "";
}

/** The first sentence, without its closing mark (the caller joins it into a sentence of its own). */
function firstSentence(text: string): string {
  const flat = oneLine(text, 160).replace(/[.!?]+$/, "");
  const end = flat.search(/[.!?](\s|$)/);
  return end >= 0 ? flat.slice(0, end) : flat;
}

/**
 * A pointer-first ce-handoff/v1 body from a transcript draft: the person's task and how it
 * evolved, quoted and attributed; the agent's last status and compaction summary, marked as its
 * words, each summary section placed under the handoff section it speaks to; the latest plan;
 * changed files as repository-relative paths; failed commands with their exit and first error
 * line. Headings are the ones resume's orientation recognises. The draft is already redacted.
 *
 * @example
 * ```ts
 * draftBody({ task: { text: "fix the login bug" }, edited: ["/repo/src/login.ts"], ... }, { roots: ["/repo"] })
 * // "# fix the login bug\n\n...\n## Files changed in the session\n\n- `src/login.ts`\n..."
 * ```
 */
export function draftBody(draft: TranscriptDraft, options: DraftBodyOptions): string {
  let body = "";
  for (const scale of SCALES) {
    body = render(draft, options, scale);
    if (new TextEncoder().encode(body).length <= DRAFT_BODY_MAX_BYTES) break;
  }
  return body;
}

function render(draft: TranscriptDraft, options: DraftBodyOptions, scale: number): string {
  const task = taskOf(draft);
  const summary = new SummaryParts(draft, scale);
  const title = task ? oneLine(task.text, TITLE_CHARS) : summary.first("objective") ? oneLine(summary.first("objective") as string, TITLE_CHARS) : "Session handoff drafted from a transcript";
  const out: string[] = [`# ${title}`, ""];
  // The first sentence is what discovery shows as the summary: say what this is and where it stands.
  out.push(draftSummary(draft, options.occasion), "");
  const source = draft.format === undefined ? "transcript" : SOURCE_NAMES[draft.format];
  out.push(
    `Drafted from the session's ${source}, not written by the agent: quoted requests are the person's words (text the agent, its hooks or an editor added to their turns is left out), the status and the compaction summary are the agent's, and nothing here was verified.${summary.attribution ? ` ${summary.attribution}` : ""}`,
    "",
  );

  const objective = objectiveLines(draft, task, scale);
  const summaryObjective = [...summary.quote("objective"), ...summary.quote("requests")];
  if (objective.length > 0 || summaryObjective.length > 0) out.push("## Objective and current intent", "", ...objective, ...summaryObjective);

  const open = (draft.plan ?? []).filter((item) => item.status !== "completed");
  const stateSummary = summary.quote("state");
  if (draft.status || draft.plan || stateSummary.length > 0) {
    out.push("## Where things stand", "");
    if (draft.status) out.push(`The agent's last status (its words, unconfirmed${draft.status.at ? `, ${draft.status.at}` : ""}):`, "", quote(draft.status.text), "");
    out.push(...stateSummary);
    if (draft.plan && draft.plan.length > 0) {
      const shown = draft.plan.slice(0, Math.max(5, Math.round(50 * scale)));
      out.push("The session's latest plan:", "", ...shown.map(planLine));
      if (shown.length < draft.plan.length) out.push(`- and ${draft.plan.length - shown.length} more items not listed`);
      out.push("");
    }
  }

  const decisions = summary.quote("decisions");
  if (decisions.length > 0) out.push("## Decisions (from the agent's compaction summary)", "", ...decisions);

  const unfinished = summary.quote("unfinished");
  if (open.length > 0 || unfinished.length > 0) {
    out.push("## Unfinished work", "");
    if (open.length > 0) {
      const shown = open.slice(0, Math.max(5, Math.round(50 * scale)));
      out.push(...shown.map((item) => `- ${oneLine(item.text, 300)} (${statusWord(item.status)})`));
      if (shown.length < open.length) out.push(`- and ${open.length - shown.length} more not listed`);
      out.push("");
    }
    out.push(...unfinished);
  }

  if (draft.edited.length > 0) {
    const shown = draft.edited.slice(-Math.max(5, Math.round(40 * scale))).reverse();
    const more = draft.edited.length - shown.length + draft.edited_past_limit;
    out.push("## Files changed in the session", "", "Most recently edited first:", "", ...shown.map((path) => `- ${pointer(path, options.roots)}`));
    if (more > 0) out.push(`- and ${more} earlier ${more === 1 ? "one" : "ones"} not listed`);
    out.push("");
  }

  const errors = summary.quote("failed");
  if (draft.failed.length > 0 || errors.length > 0) {
    out.push("## Tried and failed", "");
    if (draft.failed.length > 0) {
      out.push("Commands that failed, latest first (exit code and the first line of the error; the output itself is not copied):", "");
      for (const failure of draft.failed) {
        const exit = failure.exit !== undefined ? `exited ${failure.exit}` : "failed";
        out.push(`- \`${inlineCode(failure.command)}\` ${exit}${failure.first_line ? `: ${oneLine(failure.first_line, 200)}` : ""}`);
      }
      out.push("");
    }
    out.push(...errors);
  }

  out.push("## References", "", ...summary.quote("references"), ...summary.quote("other"));
  if (options.transcriptPath) out.push(`- The full transcript: \`${inlineCode(options.transcriptPath)}\` (machine-local: only on the machine that wrote it)`);
  if (draft.cwd) out.push(`- The session ran in \`${inlineCode(draft.cwd)}\` (machine-local)${draft.branch ? ` on branch \`${inlineCode(draft.branch)}\`` : ""}`);
  if (draft.window) {
    out.push(
      `- Read ${mb(draft.window.read_bytes)} of the transcript's ${mb(draft.window.total_bytes)}, its start and its end: files changed, commands that failed and requests in between are not listed ('handoff create --from-transcript' reads it all)`,
    );
  }
  const c = draft.counts;
  out.push(
    `- Read ${c.lines} transcript lines: ${c.used} used, ${c.skipped} skipped, ${c.sidechain} subagent, ${c.unknown} unknown, ${c.malformed} malformed, ${c.oversized} too long to read; ${c.injected} turns written by the agent, its hooks or an editor, not quoted as the person's`,
  );
  if (draft.redacted > 0) out.push(`- ${draft.redacted} secret${draft.redacted === 1 ? "" : "s"} redacted while drafting`);
  return `${out.join("\n")}\n`;
}

/** The person's words: the task, each compacted segment's first request, how it evolved, the latest, their commands. */
function objectiveLines(draft: TranscriptDraft, task: Said | undefined, scale: number): string[] {
  const out: string[] = [];
  const quoted = (said: Said) => [quote(said.text), `> (the person${said.queued ? ", typed while the agent worked" : ""}${said.at ? `, ${said.at}` : ""})`, ""];
  const shown = new Set<string>();
  if (task) {
    out.push(`The person's task, in their words (${task === draft.task ? "their first substantive request" : "the first substantive request the transcript still holds"}):`, "", ...quoted(task));
    shown.add(task.text);
  }
  for (const segment of draft.segments.filter((s) => !shown.has(s.text))) {
    out.push(`After compaction ${segment.compaction}, their first request (their words):`, "", ...quoted(segment));
    shown.add(segment.text);
  }
  const evolution = draft.evolution.filter((e) => !shown.has(e.text));
  const kept = evolution.slice(-Math.max(1, Math.round(evolution.length * scale)));
  if (kept.length > 0) {
    const omitted = draft.evolution_omitted + evolution.length - kept.length;
    out.push(`How the task evolved (their later requests, oldest first${omitted > 0 ? `; ${omitted} earlier not shown` : ""}):`, "");
    for (const said of kept) {
      out.push(...quoted(said));
      shown.add(said.text);
    }
  }
  const latest = draft.latest.filter((l) => !shown.has(l.text));
  if (latest.length > 0) {
    out.push(`The latest ${latest.length === 1 ? "request" : "requests, latest first"} (their words):`, "");
    for (const said of latest) out.push(...quoted(said));
  }
  if (draft.commands.length > 0) {
    const commands = draft.commands.map((c) => `\`${inlineCode(c.shell ? `!${c.text}` : c.text)}\``).join(", ");
    out.push(`Commands they ran themselves, latest first (pointers: what these printed is not copied): ${commands}.`, "");
  }
  return out;
}

const ROLE_NAMES: Record<SummaryRole, string> = {
  objective: "the request and intent",
  requests: "the person's messages, as the agent listed them",
  state: "where the work stood",
  decisions: "decisions and constraints",
  failed: "errors and fixes",
  unfinished: "pending work and the next step",
  references: "files and code",
  other: "other notes",
};

/** The agent's compaction summary, section by section, quoted and attributed where each belongs. */
class SummaryParts {
  private readonly sections: SummarySection[] = [];
  /** Said once, in the body's opening: whose words these are, from where, how much of them. */
  readonly attribution: string = "";

  constructor(draft: TranscriptDraft, scale: number) {
    const summary = draft.summary;
    const budget = Math.round(SUMMARY_SHOWN * scale);
    if (!summary || budget === 0) return;
    let left = budget;
    let cut = summary.cut;
    for (const section of summary.sections) {
      const max = Math.min(left, Math.round(ROLE_CHARS[section.role] * Math.max(scale, 0.25)));
      if (max <= 0) {
        cut = true;
        continue;
      }
      const text = section.text.length > max ? `${section.text.slice(0, Math.max(1, max - 1)).trimEnd()}…` : section.text;
      if (text !== section.text) cut = true;
      left -= text.length;
      this.sections.push({ ...section, text });
    }
    const from = summary.source === "hook" ? "as the PostCompact hook passed it" : "as the transcript records it";
    this.attribution = `The agent's compaction summary (${from}${summary.at ? `, ${summary.at}` : ""}) is quoted below section by section, where each belongs: its words, unverified, at most ${budget.toLocaleString("en-US")} characters of it${cut ? ", some of it left out" : ""}.`;
  }

  first(role: SummaryRole): string | undefined {
    return this.sections.find((s) => s.role === role)?.text.split("\n")[0];
  }

  /** The quoted lines of every section with this role. */
  quote(role: SummaryRole): string[] {
    const out: string[] = [];
    for (const section of this.sections.filter((s) => s.role === role)) {
      const what = section.label ? `"${oneLine(section.label, 60)}"` : ROLE_NAMES[role];
      out.push(`The agent's compaction summary, ${what} (its words):`, "", quote(section.text), "");
    }
    return out;
  }
}

/** Characters of the summary shown in all, and of each of its sections by where it goes (DRAFT_LIMITS bounds what is kept). */
const SUMMARY_SHOWN = 8000;
const ROLE_CHARS: Record<SummaryRole, number> = { objective: 2400, requests: 1200, state: 2400, decisions: 1600, failed: 2400, unfinished: 2400, references: 1200, other: 1200 };

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

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
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
