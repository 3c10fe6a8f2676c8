import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { HandoffError } from "../../../shared/errors.js";
import { type TranscriptDraft, TranscriptDrafter } from "../../../shared/transcript/drafter.js";
import { GeminiSession, geminiRecord, isGeminiDocument } from "../../../shared/transcript/gemini.js";
import { describeFsError } from "../../platform/fs.js";

/**
 * Streams a transcript file through the drafter: one fixed read buffer and at most one line in
 * memory, so a transcript of hundreds of MB drafts in the memory of its longest kept line.
 * A line longer than `maxLineBytes` (a tool result or a file snapshot; nothing a handoff keeps
 * is that long) is skipped unread and counted. Gemini CLI's pretty-printed session `.json` is
 * read whole (it holds one session, bounded by `maxDocumentBytes`).
 */
export const TRANSCRIPT_READ = {
  chunkBytes: 1 << 20,
  maxLineBytes: 4 << 20,
  maxDocumentBytes: 64 << 20,
} as const;

export interface ReadTranscriptOptions {
  maxLineBytes?: number;
  /**
   * Read at most the first `headBytes` and the last `tailBytes` of a larger file (whole lines
   * only): the task and the session's facts are at its start, where it stands at its end. Time
   * then depends on these, not on the transcript's size (SessionEnd's budget, docs/agents.md).
   */
  window?: { headBytes: number; tailBytes: number };
  /** The agent's compaction summary from the hook event (PostCompact's `compact_summary`): the newest. */
  summary?: string;
}

/**
 * Drafts from the transcript at `path`. Synchronous reads: a hook is one short process with
 * nothing else to do, and a sync loop has no stream machinery to set up. The file is opened
 * non-blocking and refused unless it is a regular file, so a FIFO or a device named as the
 * transcript cannot hang the hook or `create`.
 */
export function draftFromTranscript(path: string, options: ReadTranscriptOptions = {}): TranscriptDraft {
  const fd = openTranscript(path);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const what = stat.isFIFO() ? "a FIFO (named pipe)" : stat.isDirectory() ? "a folder" : stat.isSocket() ? "a socket" : "a device";
      throw new HandoffError("unreadable", `${path} is not a regular file but ${what}; a transcript is a file the agent wrote`, {
        hint: "pass the session's transcript file (Claude Code: the hook's transcript_path; Codex: ~/.codex/sessions/.../rollout-*.jsonl; Gemini CLI: ~/.gemini/tmp/<project>/chats/session-*.json(l))",
      });
    }
    const drafter = new TranscriptDrafter();
    const reader = new LineReader(fd, drafter, options.maxLineBytes ?? TRANSCRIPT_READ.maxLineBytes);
    const head = reader.peek();
    if (/^\s*\{\s*(?:\r?\n|$)/.test(head)) readGeminiDocument(fd, stat.size, path, drafter);
    else if (startsGeminiJsonl(head)) reader.geminiLines(stat.size);
    else {
      const window = options.window;
      if (window && stat.size > window.headBytes + window.tailBytes) {
        const tailStart = stat.size - window.tailBytes;
        reader.lines(0, window.headBytes, false, false);
        reader.lines(tailStart, stat.size, true, true);
        // The latest compaction summary is the best account of what the skipped part held.
        if (!drafter.hasSummary()) {
          const format = drafter.format();
          const markers = format === "claude-code" ? [SUMMARY_MARKERS[0]] : format === "codex" ? [SUMMARY_MARKERS[1]] : SUMMARY_MARKERS;
          const line = reader.lastLineWith(markers, Math.max(window.headBytes, tailStart - SUMMARY_SEARCH_BYTES), tailStart);
          if (line !== undefined) drafter.pushEarlierSummary(line);
        }
        drafter.readWindow(window.headBytes + window.tailBytes, stat.size);
      } else {
        reader.lines(0, Number.POSITIVE_INFINITY, false, true);
      }
    }
    if (options.summary !== undefined && options.summary.trim() !== "") drafter.pushSummary(options.summary);
    return drafter.draft();
  } finally {
    closeSync(fd);
  }
}

function openTranscript(path: string): number {
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
    return openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new HandoffError("unreadable", `cannot read the transcript ${path}: ${describeFsError(cause)}`, {
      hint: code === "ENOENT" ? "pass the session's transcript file (Claude Code: the hook's transcript_path; Codex: ~/.codex/sessions/.../rollout-*.jsonl)" : "check the file's permissions",
      cause,
    });
  }
}

/** A Gemini CLI JSONL session starts with its metadata line: `{"sessionId": ..., "projectHash": ...}`. */
function startsGeminiJsonl(head: string): boolean {
  const end = head.indexOf("\n");
  if (end < 0 && head.length >= 64 * 1024) return false;
  try {
    const first: unknown = JSON.parse(end < 0 ? head : head.slice(0, end));
    return geminiRecord(first).kind === "metadata";
  } catch {
    return false;
  }
}

function readGeminiDocument(fd: number, size: number, path: string, drafter: TranscriptDrafter): void {
  if (size > TRANSCRIPT_READ.maxDocumentBytes) {
    throw new HandoffError("too_large", `${path} is a JSON document of ${size} bytes; a session file read whole may be at most ${TRANSCRIPT_READ.maxDocumentBytes} bytes`, {
      hint: "pass the session's JSONL transcript instead",
    });
  }
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const read = readSync(fd, bytes, at, size - at, at);
    if (read === 0) break;
    at += read;
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8", 0, at));
  } catch {
    throw new HandoffError("invalid_document", `${path} starts like a JSON document but is not valid JSON`, { hint: "pass the session's transcript file as the agent wrote it" });
  }
  if (!isGeminiDocument(value)) {
    throw new HandoffError("invalid_document", `${path} is a JSON document but not a Gemini CLI session ({sessionId, projectHash, messages})`, {
      hint: "pass a Claude Code or Codex JSONL transcript, or a Gemini CLI session file",
    });
  }
  const session = new GeminiSession();
  session.add({ kind: "metadata", session_id: value.sessionId as string });
  for (const message of value.messages) drafter.countLine(session.add(geminiRecord(message)) ? "used" : "malformed");
  drafter.pushEvents(session.events());
}

/** How a compaction summary's line says so: Claude Code's flag, Codex's line type. */
const SUMMARY_MARKERS: [Buffer, Buffer] = [Buffer.from('"isCompactSummary":true'), Buffer.from('"type":"compacted"')];
/** How far back from the end's window a windowed read looks for the latest compaction summary. */
const SUMMARY_SEARCH_BYTES = 32 << 20;

/** Lines shorter than this are parsed whatever they hold: the check would cost about as much. */
const BULKY_LINE = 4096;
/** Where a tool-result line names its kind and id: before the result's content. */
const HEAD = 1024;
const TOOL_RESULT = Buffer.from('"type":"tool_result"');
const RESULT_ID = Buffer.from('"tool_use_id":"');

/** Reads a file's lines, range by range, into a drafter: one buffer, at most one line held. */
class LineReader {
  private readonly buffer = Buffer.allocUnsafe(TRANSCRIPT_READ.chunkBytes);
  private readonly decoder = new TextDecoder("utf-8");

  constructor(
    private readonly fd: number,
    private readonly drafter: TranscriptDrafter,
    private readonly maxLine: number,
  ) {}

  /** The file's first 64 KiB as text, to tell its format. */
  peek(): string {
    const read = readSync(this.fd, this.buffer, 0, 64 * 1024, 0);
    return this.buffer.toString("utf8", 0, read);
  }

  /**
   * Feeds the lines in [start, end). Unless `lastIsWhole` (the range ends where the file does),
   * a line that goes on past `end` is left out, as is, with `skipFirst`, the first line, which
   * began before `start`.
   */
  lines(start: number, end: number, skipFirst: boolean, lastIsWhole: boolean): void {
    this.each(start, end, skipFirst, lastIsWhole, (bytes) => {
      if (this.unwantedResult(bytes)) this.drafter.pushUnwantedResult();
      else this.drafter.push(this.decoder.decode(bytes));
    });
  }

  /**
   * The last line in [from, to) holding one of `markers`, searched backwards chunk by chunk (a
   * byte search, no parse), or undefined; a line longer than the reader's limit is not returned.
   */
  lastLineWith(markers: Buffer[], from: number, to: number): string | undefined {
    const { buffer } = this;
    const overlap = Math.max(...markers.map((m) => m.length));
    let end = to;
    while (end > from) {
      const start = Math.max(from, end - buffer.length);
      const read = readSync(this.fd, buffer, 0, end - start, start);
      const chunk = buffer.subarray(0, read);
      const at = Math.max(...markers.map((m) => chunk.lastIndexOf(m)));
      if (at >= 0) return this.lineAround(start + at);
      if (start === from) break;
      end = start + overlap;
    }
    return undefined;
  }

  /** The whole line holding byte `position`. */
  private lineAround(position: number): string | undefined {
    const probe = Buffer.allocUnsafe(64 * 1024);
    let start = position;
    for (;;) {
      const from = Math.max(0, start - probe.length);
      const read = readSync(this.fd, probe, 0, start - from, from);
      const newline = probe.subarray(0, read).lastIndexOf(10);
      if (newline >= 0) {
        start = from + newline + 1;
        break;
      }
      start = from;
      if (from === 0 || position - start > this.maxLine) break;
    }
    const bytes: Buffer[] = [];
    let length = 0;
    for (let at = start; length <= this.maxLine; ) {
      const read = readSync(this.fd, probe, 0, probe.length, at);
      if (read === 0) break;
      const newline = probe.subarray(0, read).indexOf(10);
      const part = Buffer.from(probe.subarray(0, newline < 0 ? read : newline));
      bytes.push(part);
      length += part.length;
      if (newline >= 0) break;
      at += read;
    }
    return length > this.maxLine || position - start > this.maxLine ? undefined : this.decoder.decode(Buffer.concat(bytes));
  }

  /** A Gemini CLI JSONL session: records are final only once read (rewrites, rewinds), so events come at the end. */
  geminiLines(size: number): void {
    const session = new GeminiSession();
    this.each(0, size, false, true, (bytes) => {
      let value: unknown;
      try {
        value = JSON.parse(this.decoder.decode(bytes));
      } catch {
        this.drafter.countLine(bytes.length === 0 ? "skipped" : "malformed");
        return;
      }
      this.drafter.countLine(session.add(geminiRecord(value)) ? "used" : "unknown");
    });
    this.drafter.pushEvents(session.events());
  }

  private each(start: number, end: number, skipFirst: boolean, lastIsWhole: boolean, onLine: (bytes: Buffer) => void): void {
    const { buffer, maxLine, drafter } = this;
    // A range that starts right after a newline starts with a whole line.
    if (skipFirst && start > 0 && readSync(this.fd, buffer, 0, 1, start - 1) === 1 && buffer[0] === 10) skipFirst = false;
    // The start of a line that continues past the current chunk; dropped once it is too long.
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let skipping = skipFirst;
    let skippingFirst = skipFirst;
    const endLine = (tail: Buffer) => {
      if (skippingFirst) skippingFirst = false;
      else if (skipping || carryBytes + tail.length > maxLine) drafter.pushOversized();
      else onLine(carry.length === 0 ? tail : Buffer.concat([...carry, tail]));
      carry = [];
      carryBytes = 0;
      skipping = false;
    };
    let position = start;
    while (position < end) {
      const read = readSync(this.fd, buffer, 0, Math.min(buffer.length, end - position), position);
      if (read === 0) break;
      position += read;
      let from = 0;
      for (;;) {
        const newline = buffer.indexOf(10, from);
        if (newline < 0 || newline >= read) break;
        endLine(buffer.subarray(from, newline));
        from = newline + 1;
      }
      if (from < read && !skipping) {
        const rest = buffer.subarray(from, read);
        if (carryBytes + rest.length > maxLine) {
          skipping = true;
          carry = [];
          carryBytes = 0;
        } else {
          // A copy: the buffer is overwritten by the next read.
          carry.push(Buffer.from(rest));
          carryBytes += rest.length;
        }
      }
    }
    // A last line without its newline: whole at the end of the file, cut at the end of a head range.
    if (lastIsWhole && (carryBytes > 0 || skipping) && !skippingFirst) endLine(Buffer.alloc(0));
  }

  /**
   * Most of a long session's bytes are tool results (file contents, command output) that the
   * draft keeps nothing of unless a pending command asked for them. Claude Code writes each tool
   * result as a user line of its own, `{..., "message": {"role": "user", "content":
   * [{"tool_use_id": ..., "type": "tool_result", "content": <bulk>}]}, ...}`: a bulky line whose
   * head says so and names an id no pending command waits for is skipped before it is decoded or
   * parsed. Only the head is searched (a whole-line search costs as much as the parse it saves);
   * any doubt parses it.
   */
  private unwantedResult(line: Buffer): boolean {
    if (line.length < BULKY_LINE) return false;
    const head = line.subarray(0, HEAD);
    if (head.indexOf(TOOL_RESULT) < 0) return false;
    const at = head.indexOf(RESULT_ID);
    if (at < 0) return false;
    const start = at + RESULT_ID.length;
    const end = head.indexOf(34, start);
    return end > start && !this.drafter.awaitsResult(head.toString("latin1", start, end));
  }
}
