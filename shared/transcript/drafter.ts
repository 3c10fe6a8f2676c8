import { HandoffError } from "../errors.js";
import { clip, Finisher, type Held, hold } from "./clean.js";
import type { LineReading, PlanItem, TranscriptEvent, TranscriptFormat } from "./events.js";
import { readTranscriptLine } from "./line.js";
import { type SummarySection, summaryBody, summarySections } from "./summary.js";
import { isAcknowledgement, type Voice } from "./voice.js";

/**
 * A state machine fed one transcript line (or event) at a time that keeps a bounded account of
 * the session: memory does not grow with the transcript, only with these limits. Texts are held
 * raw up to `rawChars` and redacted before they are cut to the limits (clean.ts).
 */
export const DRAFT_LIMITS = {
  /** The latest requests kept, of any kind (acknowledgements too: they say where the talk is). */
  latest: 3,
  /** Substantive requests between the task and now, the latest kept (the rest counted). */
  evolution: 5,
  /** The first substantive request of each compacted segment, the latest kept. */
  segments: 3,
  /** The person's own commands (slash commands, `!` shell commands), the latest kept. */
  commands: 5,
  /** Prompts waiting in Claude Code's queue. */
  queued: 16,
  /** Characters shown of the task, of other requests, of a command, of the agent's last status. */
  taskChars: 600,
  requestChars: 400,
  commandChars: 200,
  statusChars: 1200,
  /** The agent's compaction summary: characters shown in all, and of each of its sections. */
  summaryChars: 8000,
  summarySectionChars: 2400,
  /** Characters held of a text before redaction (the cut to the limits above comes after). */
  rawChars: 16 * 1024,
  summaryRawChars: 64 * 1024,
  commandRawChars: 2048,
  /** Files the session changed, the most recently edited kept. */
  edits: 100,
  /** Failed commands kept, latest first. */
  failures: 10,
  /** Commands waiting for their result (a result that never comes must not hold memory forever). */
  pending: 256,
  /** Plan items kept. */
  planItems: 50,
} as const;

export interface FailedCommand {
  command: string;
  exit?: number;
  first_line: string;
}

export interface LineCounts {
  /** Lines read. */
  lines: number;
  /** Lines that gave the draft something. */
  used: number;
  /** Known line types with nothing a handoff keeps (progress, system, summaries, snapshots). */
  skipped: number;
  /** Subagent turns (`isSidechain`), left out: they are another conversation. */
  sidechain: number;
  /** Lines of a type neither format documents. */
  unknown: number;
  /** Lines that are not a JSON object with a type. */
  malformed: number;
  /** Lines longer than the reader's limit, skipped unread (tool results and file snapshots). */
  oversized: number;
  /** User-role turns the agent, a hook or an editor wrote (voice.ts): never quoted as the person's. */
  injected: number;
}

/** A request as the draft keeps it: redacted, bounded, with when it was said. */
export interface Said {
  text: string;
  at?: string;
  /** Typed while the agent worked (Claude Code's prompt queue). */
  queued?: boolean;
}

/** The agent's compaction summary: its words, redacted and bounded, in labelled sections. */
export interface DraftSummary {
  at?: string;
  /** The transcript's own summary line, or the PostCompact hook's `compact_summary`. */
  source: "transcript" | "hook";
  sections: SummarySection[];
  /** Whether part of it was left out to stay within {@link DRAFT_LIMITS}. */
  cut: boolean;
}

/** What a transcript says about its session, bounded by {@link DRAFT_LIMITS}, redacted. */
export interface TranscriptDraft {
  format?: TranscriptFormat;
  session_id?: string;
  /** The session's working directory, as the transcript records it (machine-local). */
  cwd?: string;
  branch?: string;
  /** The person's task: the first substantive request of the session. */
  task?: Said;
  /** The first substantive request after each compaction, oldest first (`compaction`: which one). */
  segments: (Said & { compaction: number })[];
  /** Substantive requests after the task, oldest first; `evolution_omitted` earlier ones not kept. */
  evolution: Said[];
  evolution_omitted: number;
  /** The latest requests of any kind, latest first. */
  latest: Said[];
  /** The person's own commands, latest first: pointers (`/model`, `!npm test`), never their output. */
  commands: (Said & { shell: boolean })[];
  summary?: DraftSummary;
  compactions: number;
  /** The latest todo list or plan. */
  plan?: PlanItem[];
  /** Files the session changed, as the tools named them, most recently edited last. */
  edited: string[];
  /** Files edited earlier that left the list at its limit (a file that left twice counts twice). */
  edited_past_limit: number;
  failed: FailedCommand[];
  /** The agent's last words to the person. */
  status?: Said;
  counts: LineCounts;
  /** Secrets replaced by `[REDACTED:<rule>]` while drafting. */
  redacted: number;
  /** Set when only part of the transcript was read (its head and its end). */
  window?: { read_bytes: number; total_bytes: number };
}

interface HeldCommand {
  command: Held;
  shell: boolean;
}

/**
 * Feeds lines, reads a draft. Pure: the caller reads the file.
 *
 * @example
 * ```ts
 * const drafter = new TranscriptDrafter();
 * for (const line of text.split("\n")) drafter.push(line);
 * drafter.draft().task?.text // the person's first substantive request
 * ```
 */
export class TranscriptDrafter {
  private task: Held | undefined;
  private readonly segments: (Held & { compaction: number })[] = [];
  private readonly evolution: Held[] = [];
  private evolutionOmitted = 0;
  private readonly latest: (Held & { queued?: boolean })[] = [];
  private readonly commands: HeldCommand[] = [];
  private queued: Held[] = [];
  private summary: { held: Held; source: DraftSummary["source"] } | undefined;
  private compactions = 0;
  /** A compaction was seen and its summary not yet: the summary belongs to it. */
  private boundaryOpen = false;
  /** The next substantive request opens a compacted segment. */
  private awaitingSegment = false;
  private plan: PlanItem[] | undefined;
  private readonly edited = new Set<string>();
  private editedPast = 0;
  private readonly failed: { command: Held; exit?: number; first_line: Held }[] = [];
  private readonly pending = new Map<string, Held>();
  private status: Held | undefined;
  private window: TranscriptDraft["window"];
  private meta: { format?: TranscriptFormat; session_id?: string; cwd?: string; branch?: string } = {};
  private readonly counts: LineCounts = { lines: 0, used: 0, skipped: 0, sidechain: 0, unknown: 0, malformed: 0, oversized: 0, injected: 0 };

  /** Reads one line (without its newline). */
  push(line: string): void {
    this.counts.lines++;
    this.take(readTranscriptLine(line));
  }

  /** Takes events read elsewhere (a Gemini CLI session, whose records are final only once it is read whole). */
  pushEvents(events: TranscriptEvent[]): void {
    for (const event of events) this.apply(event);
  }

  /** Counts a line read elsewhere, by what became of it. */
  countLine(outcome: LineReading["outcome"]): void {
    this.counts.lines++;
    this.counts[outcome]++;
  }

  /** The PostCompact hook's `compact_summary`: the newest summary, from the agent that wrote it. */
  pushSummary(text: string): void {
    this.summarise(text, undefined, "hook");
  }

  /** Only part of the transcript was read: its first and last bytes. */
  readWindow(readBytes: number, totalBytes: number): void {
    this.window = { read_bytes: readBytes, total_bytes: totalBytes };
  }

  /** Whether a compaction summary was read (a windowed reader looks further back for one when not). */
  hasSummary(): boolean {
    return this.summary !== undefined;
  }

  /** The transcript's format, once a line has said it. */
  format(): TranscriptFormat | undefined {
    return this.meta.format;
  }

  /**
   * The latest compaction summary, found in the part of the transcript a windowed read skipped:
   * kept as the session's summary, but it opens no segment (what followed it was not read in order).
   */
  pushEarlierSummary(line: string): void {
    const reading = readTranscriptLine(line);
    if (reading.outcome !== "used") return;
    for (const event of reading.events) {
      if (event.kind !== "said" || event.voice.kind !== "summary") continue;
      const held = hold(summaryBody(event.voice.text), DRAFT_LIMITS.summaryRawChars, event.at);
      if (held.text === "") continue;
      this.summary = { held, source: "transcript" };
      this.compactions = Math.max(this.compactions, 1);
    }
  }

  /**
   * Whether a tool result for `id` would be kept: only a command still waiting for its result.
   * Lets a reader skip decoding a bulky result line that no pending command asked for.
   */
  awaitsResult(id: string): boolean {
    return this.pending.has(id);
  }

  /** A tool-result line the reader skipped unread, since no pending command asked for it. */
  pushUnwantedResult(): void {
    this.counts.lines++;
    this.counts.skipped++;
  }

  /** A line the reader did not read because it was longer than its limit. */
  pushOversized(): void {
    this.counts.lines++;
    this.counts.oversized++;
  }

  private take(reading: LineReading): void {
    if (reading.outcome !== "used") {
      this.counts[reading.outcome]++;
      return;
    }
    this.counts.used++;
    for (const event of reading.events) this.apply(event);
  }

  private apply(event: TranscriptEvent): void {
    switch (event.kind) {
      case "meta":
        this.meta = {
          format: event.format,
          session_id: event.session_id ?? this.meta.session_id,
          cwd: this.meta.cwd ?? event.cwd,
          branch: event.branch ?? this.meta.branch,
        };
        return;
      case "said":
        this.said(event.voice, event.at);
        return;
      case "queue":
        this.queue(event);
        return;
      case "compaction":
        this.compactions++;
        this.boundaryOpen = true;
        this.awaitingSegment = true;
        return;
      case "status":
        this.status = hold(event.text, DRAFT_LIMITS.rawChars, event.at);
        return;
      case "plan":
        this.plan = event.items.slice(0, DRAFT_LIMITS.planItems).map((item) => ({ ...item, text: item.text.slice(0, DRAFT_LIMITS.commandRawChars) }));
        return;
      case "edit":
        this.edit(event.path);
        return;
      case "command":
        if (this.pending.size >= DRAFT_LIMITS.pending) this.pending.delete(this.pending.keys().next().value as string);
        this.pending.set(event.id, hold(event.command, DRAFT_LIMITS.commandRawChars));
        return;
      case "result": {
        const command = this.pending.get(event.id);
        if (command === undefined) return;
        this.pending.delete(event.id);
        if (!event.failed) return;
        this.failed.unshift({ command, ...(event.exit !== undefined ? { exit: event.exit } : {}), first_line: { text: event.first_line, cut: event.first_line.length >= 4096 } });
        if (this.failed.length > DRAFT_LIMITS.failures) this.failed.pop();
        return;
      }
    }
  }

  private said(voice: Voice, at: string | undefined): void {
    switch (voice.kind) {
      case "typed":
        this.request(hold(voice.text, DRAFT_LIMITS.rawChars, at));
        return;
      case "command":
        // A command of the project's own with words after it ("/review the parser") asks for work.
        if (!voice.builtin && voice.text.includes(" ")) this.request(hold(voice.text, DRAFT_LIMITS.rawChars, at));
        this.command(hold(voice.text, DRAFT_LIMITS.commandRawChars, at), false);
        return;
      case "shell":
        this.command(hold(voice.text, DRAFT_LIMITS.commandRawChars, at), true);
        return;
      case "summary":
        this.summarise(voice.text, at, "transcript");
        return;
      case "injected":
        this.counts.injected++;
        return;
    }
  }

  private request(held: Held & { queued?: boolean }): void {
    // The same words again at once: a queued prompt the transcript also records as a user line.
    if (this.latest[0]?.text === held.text) return;
    this.latest.unshift(held);
    if (this.latest.length > DRAFT_LIMITS.latest) this.latest.pop();
    this.boundaryOpen = false;
    if (isAcknowledgement(held.text)) return;
    if (this.task === undefined) {
      this.task = held;
      this.awaitingSegment = false;
    } else if (this.awaitingSegment) {
      this.segments.push({ ...held, compaction: this.compactions });
      if (this.segments.length > DRAFT_LIMITS.segments) this.segments.shift();
      this.awaitingSegment = false;
    } else {
      this.evolution.push(held);
      if (this.evolution.length > DRAFT_LIMITS.evolution) {
        this.evolution.shift();
        this.evolutionOmitted++;
      }
    }
  }

  private command(held: Held, shell: boolean): void {
    this.commands.unshift({ command: held, shell });
    if (this.commands.length > DRAFT_LIMITS.commands) this.commands.pop();
  }

  private summarise(text: string, at: string | undefined, source: DraftSummary["source"]): void {
    const held = hold(summaryBody(text), DRAFT_LIMITS.summaryRawChars, at);
    if (held.text === "" || held.text === this.summary?.held.text) return;
    if (!this.boundaryOpen) this.compactions++;
    this.boundaryOpen = false;
    this.awaitingSegment = true;
    this.summary = { held, source };
  }

  /**
   * Claude Code's prompt queue. A prompt typed while the agent works is enqueued; `dequeue`
   * means it is sent as an ordinary user line (read there); `remove` means the agent took it in
   * mid-turn, so no user line follows (read here); `popAll` means the person took the queue back
   * to edit. What is still queued at the end is the person's latest words.
   */
  private queue(event: Extract<TranscriptEvent, { kind: "queue" }>): void {
    switch (event.op) {
      case "enqueue":
        if (event.voice?.kind !== "typed" && !(event.voice?.kind === "command" && !event.voice.builtin)) {
          if (event.voice?.kind === "injected") this.counts.injected++;
          return;
        }
        this.queued.push(hold(event.voice.text, DRAFT_LIMITS.rawChars, event.at));
        if (this.queued.length > DRAFT_LIMITS.queued) this.queued.shift();
        return;
      case "dequeue":
        this.queued.shift();
        return;
      case "remove": {
        const taken = this.queued.pop();
        if (taken) this.request({ ...taken, queued: true });
        return;
      }
      case "popAll":
        this.queued = [];
        return;
    }
  }

  private edit(path: string): void {
    // Most recent last: a file edited again moves to the end; past the limit the file edited
    // longest ago leaves (counted: the draft says how many are not listed).
    if (this.edited.delete(path)) {
      this.edited.add(path);
      return;
    }
    this.edited.add(path);
    if (this.edited.size > DRAFT_LIMITS.edits) {
      this.edited.delete(this.edited.values().next().value as string);
      this.editedPast++;
    }
  }

  /** The draft so far: every text redacted, then bounded. Throws `redaction_failed` rather than keep an unscanned text. */
  draft(): TranscriptDraft {
    const f = new Finisher();
    const L = DRAFT_LIMITS;
    const said = (held: Held & { queued?: boolean }, max: number): Said => ({
      text: f.text(held, max),
      ...(held.at === undefined ? {} : { at: held.at }),
      ...(held.queued ? { queued: true } : {}),
    });
    // Still queued: typed while the agent worked and not yet taken in (latest last in the queue).
    const latest = [...this.queued.map((q) => ({ ...q, queued: true })).reverse(), ...this.latest].slice(0, L.latest);
    const draft: TranscriptDraft = {
      ...definedOnly(this.meta),
      segments: this.segments.map((s) => ({ ...said(s, L.requestChars), compaction: s.compaction })),
      evolution: this.evolution.map((e) => said(e, L.requestChars)),
      evolution_omitted: this.evolutionOmitted,
      latest: latest.map((r) => said(r, L.requestChars)),
      commands: this.commands.map((c) => ({ ...said(c.command, L.commandChars), shell: c.shell })),
      compactions: this.compactions,
      edited: [...this.edited],
      edited_past_limit: this.editedPast,
      failed: this.failed.map((x) => ({ command: f.text(x.command, L.commandChars), ...(x.exit !== undefined ? { exit: x.exit } : {}), first_line: f.text(x.first_line, 200) })),
      counts: { ...this.counts },
      redacted: 0,
    };
    if (this.task) draft.task = said(this.task, L.taskChars);
    if (this.summary) draft.summary = this.finishSummary(f);
    if (this.plan) draft.plan = this.plan.map((item) => ({ ...item, text: f.text({ text: item.text, cut: item.text.length >= L.commandRawChars }, 300) }));
    if (this.status) draft.status = said(this.status, L.statusChars);
    if (this.window) draft.window = { ...this.window };
    draft.redacted = f.redacted;
    return draft;
  }

  /** The summary redacted whole, then split, each section bounded and the whole within its limit. */
  private finishSummary(f: Finisher): DraftSummary {
    const { held, source } = this.summary as NonNullable<TranscriptDrafter["summary"]>;
    const clean = f.text(held, Number.MAX_SAFE_INTEGER);
    let left: number = DRAFT_LIMITS.summaryChars;
    let cut = held.cut;
    const sections: SummarySection[] = [];
    for (const section of summarySections(clean)) {
      if (left <= 0) {
        cut = true;
        break;
      }
      const max = Math.min(DRAFT_LIMITS.summarySectionChars, left);
      const text = clip(section.text, max);
      if (text !== section.text) cut = true;
      left -= text.length;
      sections.push({ ...section, text });
    }
    return { ...(held.at === undefined ? {} : { at: held.at }), source, sections, cut };
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Refuses a draft that carries nothing of its session: no request of the person's, no word of the
 * agent's, no summary, plan, edit or command. Its rendered body would still have a title and
 * boilerplate, which sufficiency (it judges what a body says, not where it came from) would
 * write as "unsure"; a transcript with nothing in it yet is no handoff at all.
 *
 * @example
 * ```ts
 * refuseEmptyDraft(new TranscriptDrafter().draft()) // throws HandoffError("insufficient", ...)
 * ```
 */
export function refuseEmptyDraft(draft: TranscriptDraft): void {
  const says = draft.task ?? draft.latest[0] ?? draft.status ?? draft.summary ?? draft.plan?.[0] ?? draft.edited[0] ?? draft.failed[0] ?? draft.commands[0];
  if (says !== undefined) return;
  throw new HandoffError("insufficient", "the transcript has nothing to resume from yet: no request of the person's, no word of the agent's, no plan, edit or command; nothing was written", {
    hint: "pass the transcript of a session that has started, or write the handoff yourself (handoff create --body-file F)",
  });
}
