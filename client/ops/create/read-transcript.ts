import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { HandoffError } from "../../../shared/errors.js";
import { describeFsError } from "../../platform/fs.js";
import { type TranscriptDraft, TranscriptDrafter } from "../../../shared/transcript/drafter.js";

/**
 * Streams a transcript file through the drafter: one fixed read buffer and at most one line in
 * memory, so a transcript of hundreds of MB drafts in the memory of its longest kept line.
 * A line longer than `maxLineBytes` (a tool result or a file snapshot; nothing a handoff keeps
 * is that long) is skipped unread and counted.
 */
export const TRANSCRIPT_READ = {
  chunkBytes: 1 << 20,
  maxLineBytes: 4 << 20,
} as const;

export interface ReadTranscriptOptions {
  maxLineBytes?: number;
}

/**
 * Drafts from the transcript at `path`. Synchronous reads: a hook is one short process with
 * nothing else to do, and a sync loop has no stream machinery to set up. The file is opened
 * non-blocking and refused unless it is a regular file, so a FIFO or a device named as the
 * transcript cannot hang the hook or `create`.
 */
export function draftFromTranscript(path: string, options: ReadTranscriptOptions = {}): TranscriptDraft {
  const maxLine = options.maxLineBytes ?? TRANSCRIPT_READ.maxLineBytes;
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new HandoffError("unreadable", `cannot read the transcript ${path}: ${describeFsError(cause)}`, {
      hint: code === "ENOENT" ? "pass the session's transcript file (Claude Code: the hook's transcript_path; Codex: ~/.codex/sessions/.../rollout-*.jsonl)" : "check the file's permissions",
      cause,
    });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const what = stat.isFIFO() ? "a FIFO (named pipe)" : stat.isDirectory() ? "a folder" : stat.isSocket() ? "a socket" : "a device";
      throw new HandoffError("unreadable", `${path} is not a regular file but ${what}; a transcript is a file the agent wrote`, {
        hint: "pass the session's transcript file (Claude Code: the hook's transcript_path; Codex: ~/.codex/sessions/.../rollout-*.jsonl)",
      });
    }
    const drafter = new TranscriptDrafter();
    const decoder = new TextDecoder("utf-8");
    const buffer = Buffer.allocUnsafe(TRANSCRIPT_READ.chunkBytes);
    // The start of a line that continues past the current chunk; dropped once it is too long.
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let skipping = false;
    const endLine = (tail: Buffer) => {
      if (skipping) {
        drafter.pushOversized();
      } else if (carryBytes + tail.length > maxLine) {
        drafter.pushOversized();
      } else {
        const bytes = carry.length === 0 ? tail : Buffer.concat([...carry, tail]);
        if (unwantedResult(bytes, drafter)) drafter.pushUnwantedResult();
        else drafter.push(decoder.decode(bytes));
      }
      carry = [];
      carryBytes = 0;
      skipping = false;
    };
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      let start = 0;
      for (;;) {
        const newline = buffer.indexOf(10, start);
        if (newline < 0 || newline >= read) break;
        endLine(buffer.subarray(start, newline));
        start = newline + 1;
      }
      if (start < read && !skipping) {
        const rest = buffer.subarray(start, read);
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
    if (carryBytes > 0 || skipping) endLine(Buffer.alloc(0));
    return drafter.draft();
  } finally {
    closeSync(fd);
  }
}

/** Lines shorter than this are parsed whatever they hold: the check would cost about as much. */
const BULKY_LINE = 4096;
/** Where a tool-result line names its kind and id: before the result's content. */
const HEAD = 1024;
const TOOL_RESULT = Buffer.from('"type":"tool_result"');
const RESULT_ID = Buffer.from('"tool_use_id":"');

/**
 * Most of a long session's bytes are tool results (file contents, command output) that the draft
 * keeps nothing of unless a pending command asked for them. Claude Code writes each tool result
 * as a user line of its own, `{..., "message": {"role": "user", "content": [{"tool_use_id": ...,
 * "type": "tool_result", "content": <bulk>}]}, ...}`: a bulky line whose head says so and names
 * an id no pending command waits for is skipped before it is decoded or parsed. Only the head is
 * searched (a whole-line search costs as much as the parse it saves); any doubt parses it.
 */
function unwantedResult(line: Buffer, drafter: TranscriptDrafter): boolean {
  if (line.length < BULKY_LINE) return false;
  const head = line.subarray(0, HEAD);
  if (head.indexOf(TOOL_RESULT) < 0) return false;
  const at = head.indexOf(RESULT_ID);
  if (at < 0) return false;
  const start = at + RESULT_ID.length;
  const end = head.indexOf(34, start);
  return end > start && !drafter.awaitsResult(head.toString("latin1", start, end));
}
