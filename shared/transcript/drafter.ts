import { type LineReading, type PlanItem, type TranscriptEvent, type TranscriptFormat, readTranscriptLine } from "./line.js";

/**
 * A state machine fed one transcript line at a time that keeps a bounded summary of the session:
 * memory does not grow with the transcript, only with these limits. Oldest entries leave first.
 */
export const DRAFT_LIMITS = {
  /** The user's requests kept, latest first. */
  requests: 5,
  /** Characters kept of each request and of the agent's last status. */
  requestChars: 600,
  statusChars: 1200,
  /** Files the session changed, the most recently edited kept. */
  edits: 100,
  /** Failed commands kept, latest first. */
  failures: 10,
  /** Characters kept of a command. */
  commandChars: 200,
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
}

/** What a transcript says about its session, bounded by {@link DRAFT_LIMITS}. */
export interface TranscriptDraft {
  format?: TranscriptFormat;
  session_id?: string;
  /** The session's working directory, as the transcript records it (machine-local). */
  cwd?: string;
  branch?: string;
  /** The user's own requests, latest first. */
  requests: { text: string; at?: string }[];
  /** The latest todo list or plan. */
  plan?: PlanItem[];
  /** Files the session changed, as the tools named them, most recently edited last. */
  edited: string[];
  /** Files edited earlier that left the list at its limit (a file that left twice counts twice). */
  edited_past_limit: number;
  failed: FailedCommand[];
  /** The agent's last words to the user. */
  status?: { text: string; at?: string };
  counts: LineCounts;
}

/**
 * Feeds lines, reads a draft. Pure: the caller reads the file.
 *
 * @example
 * ```ts
 * const drafter = new TranscriptDrafter();
 * for (const line of text.split("\n")) drafter.push(line);
 * drafter.draft().requests[0]?.text // the user's latest request
 * ```
 */
export class TranscriptDrafter {
  private readonly requests: { text: string; at?: string }[] = [];
  private plan: PlanItem[] | undefined;
  private readonly edited = new Set<string>();
  private editedPast = 0;
  private readonly failed: FailedCommand[] = [];
  private readonly pending = new Map<string, string>();
  private status: { text: string; at?: string } | undefined;
  private meta: { format?: TranscriptFormat; session_id?: string; cwd?: string; branch?: string } = {};
  private readonly counts: LineCounts = { lines: 0, used: 0, skipped: 0, sidechain: 0, unknown: 0, malformed: 0, oversized: 0 };

  /** Reads one line (without its newline). */
  push(line: string): void {
    this.counts.lines++;
    this.take(readTranscriptLine(line));
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
      case "request":
        this.requests.unshift(bounded(event, DRAFT_LIMITS.requestChars));
        if (this.requests.length > DRAFT_LIMITS.requests) this.requests.pop();
        return;
      case "status":
        this.status = bounded(event, DRAFT_LIMITS.statusChars);
        return;
      case "plan":
        this.plan = event.items.slice(0, DRAFT_LIMITS.planItems).map((item) => ({ ...item, text: clip(item.text, DRAFT_LIMITS.requestChars) }));
        return;
      case "edit":
        // Most recent last: a file edited again moves to the end; past the limit the file edited
        // longest ago leaves (counted: the draft says how many are not listed).
        if (this.edited.delete(event.path)) {
          this.edited.add(event.path);
          return;
        }
        this.edited.add(event.path);
        if (this.edited.size > DRAFT_LIMITS.edits) {
          this.edited.delete(this.edited.values().next().value as string);
          this.editedPast++;
        }
        return;
      case "command":
        if (this.pending.size >= DRAFT_LIMITS.pending) this.pending.delete(this.pending.keys().next().value as string);
        this.pending.set(event.id, clip(event.command, DRAFT_LIMITS.commandChars));
        return;
      case "result": {
        const command = this.pending.get(event.id);
        if (command === undefined) return;
        this.pending.delete(event.id);
        if (!event.failed) return;
        this.failed.unshift({ command, ...(event.exit !== undefined ? { exit: event.exit } : {}), first_line: event.first_line });
        if (this.failed.length > DRAFT_LIMITS.failures) this.failed.pop();
        return;
      }
    }
  }

  draft(): TranscriptDraft {
    const draft: TranscriptDraft = {
      ...definedOnly(this.meta),
      requests: [...this.requests],
      edited: [...this.edited],
      edited_past_limit: this.editedPast,
      failed: [...this.failed],
      counts: { ...this.counts },
    };
    if (this.plan) draft.plan = this.plan.map((item) => ({ ...item }));
    if (this.status) draft.status = { ...this.status };
    return draft;
  }
}

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

function bounded(event: { text: string; at?: string }, max: number): { text: string; at?: string } {
  return event.at === undefined ? { text: clip(event.text, max) } : { text: clip(event.text, max), at: event.at };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
