import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES } from "../../../shared/ce/contract.js";

/** The contract's bounds for reading frontmatter during discovery (shared/ce/contract.ts). */
export const HEAD_MAX_BYTES = FRONTMATTER_MAX_BYTES;
export const HEAD_MAX_LINES = FRONTMATTER_MAX_LINES;
/** An unindexed file's first line is shown for recognition, cut at this many bytes. */
export const FIRST_LINE_MAX_BYTES = 1024;
/**
 * The first read, one system call: it holds the whole frontmatter of nearly every handoff (ours
 * are about 500 bytes), where a 5-byte probe for the opener and then a second read made two per
 * candidate, a tenth of discovery's time. It is the same 1 KiB that a first-line label may take,
 * so a file without the opener is still read no further than its first line's bound; the rest of
 * that read is never looked at.
 */
const FIRST_READ = FIRST_LINE_MAX_BYTES;
// Small steps after it, so a read ends soon after what it was for (the closing delimiter, the end
// of the first line) instead of pulling in the body behind it.
const HEAD_STEP = 512;
const LINE_STEP = 64;
const NEWLINE = 0x0a;

// One buffer for every candidate: discovery reads thousands of heads, one at a time, and a fresh
// 16 KiB buffer each is most of its garbage. A plain Uint8Array, not a Buffer: its indexOf and
// subarray are the engine's own compiled code, where Buffer's are JavaScript that runs in the
// interpreter for the first few thousand candidates of a process.
const scratch = new Uint8Array(HEAD_MAX_BYTES);
// ignoreBOM keeps a BOM in the label, as Buffer#toString did: it is why such a file has no opener.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
/**
 * Buffer's own UTF-8 slice, which Buffer#toString calls: the same lenient decode (a byte that is
 * not UTF-8 reads as U+FFFD, a BOM is kept) straight into the engine, where TextDecoder#decode
 * first checks its arguments in JavaScript that runs in the interpreter for most of a process's
 * candidates: 0.4–1.3 µs of a candidate's 14–19, Node 20 to 24 (issue 26). Not part of Node's
 * documented API, so TextDecoder stands in wherever it is missing.
 */
const nativeUtf8Slice = (Buffer.prototype as { utf8Slice?: (this: Uint8Array, start: number, end: number) => string }).utf8Slice;

/** The first `end` bytes of the scratch buffer as text, leniently decoded (see nativeUtf8Slice). */
function decodeScratch(end: number): string {
  return nativeUtf8Slice === undefined ? utf8.decode(scratch.subarray(0, end)) : nativeUtf8Slice.call(scratch, 0, end);
}

/**
 * `bytes` of a "head" is a view of one shared buffer: use it before the next call (or copy it).
 * No modification time: most handoffs carry `created_at`, so discovery stats only the files
 * that ranking must date by their mtime (an fstat per file was a tenth of discovery's time).
 */
export type HeadRead<T = never> =
  | { kind: "head"; bytes: Uint8Array; bytesRead: number }
  | { kind: "recognised"; value: T; bytesRead: number }
  | { kind: "first-line"; firstLine: string; bytesRead: number }
  | { kind: "skipped"; reason: "not-regular" | "unreadable" };

/**
 * Reads the start of a candidate without ever blocking or reading past the contract's bounds.
 * Opened with O_NOFOLLOW (a symlink planted since enumeration is refused) and O_NONBLOCK (a
 * FIFO swapped in cannot hang us). Enumeration saw a regular file; what can have been swapped
 * in since reads as nothing or fails (a FIFO, a folder), so only an empty or failed read costs
 * an fstat, which tells an empty file from something that is not a regular file.
 * A file that does not start with the exact `---` line yields its first line only; one that
 * does is read (after the first read) in small steps until the closing delimiter, 64 lines or
 * 16 KiB. `bytes` ends at that bound; `bytesRead` counts every byte taken from the file (at most
 * the first read, or one step, more).
 *
 * `recognise`, when given, is first offered the text up to the first `---` line (LF-ended) of
 * the first read: one decode and one search, both native, instead of the line-by-line walk and
 * its JavaScript loop (nine searches a head). That text is the head only if no earlier line is a
 * `---` ended by CRLF, fewer than 64 lines come before it, and its bytes are valid UTF-8 (the
 * decode there is lenient: a bad byte reads as U+FFFD). So `recognise` may accept only text whose
 * shape proves all three: every line between the delimiters a `key: value` line, a handful of
 * them, no U+FFFD (what `handoff create` writes). What it accepts comes back as `recognised`;
 * anything else takes the walk, exactly as without it.
 */
export function readCandidateHead<T = never>(path: string, recognise?: (head: string) => T | undefined): HeadRead<T> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { kind: "skipped", reason: "unreadable" };
  }
  try {
    let length = readSync(fd, scratch, 0, FIRST_READ, 0);
    if (length === 0 && !isRegular(fd)) return { kind: "skipped", reason: "not-regular" };
    const isOpener = scratch[0] === 0x2d && scratch[1] === 0x2d && scratch[2] === 0x2d && (scratch[3] === NEWLINE || (length >= 5 && scratch[3] === 0x0d && scratch[4] === NEWLINE));
    if (length < 4 || !isOpener) return firstLineOf(fd, length);
    if (recognise !== undefined && scratch[3] === NEWLINE) {
      const text = decodeScratch(length);
      const at = text.indexOf("\n---\n", 3);
      if (at !== -1) {
        const value = recognise(text.slice(0, at + 5));
        if (value !== undefined) return { kind: "recognised", value, bytesRead: length };
      }
    }
    const scan = { from: scratch.indexOf(NEWLINE) + 1, lines: 1 };
    let end = headEnd(length, scan);
    while (end === undefined && length < HEAD_MAX_BYTES) {
      const n = readSync(fd, scratch, length, Math.min(HEAD_STEP, HEAD_MAX_BYTES - length), length);
      if (n === 0) break;
      length += n;
      end = headEnd(length, scan);
    }
    // A view, not a copy: it is valid until the next call, and discovery scans it at once.
    return { kind: "head", bytes: scratch.subarray(0, end ?? length), bytesRead: length };
  } catch {
    // A FIFO with a writer fails with EAGAIN, a folder with EISDIR: name what it is.
    return { kind: "skipped", reason: isRegular(fd) ? "unreadable" : "not-regular" };
  } finally {
    closeSync(fd);
  }
}

function isRegular(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/**
 * Where the head ends in the bytes read so far: just after the closing `---` line, or after the
 * 64th line; undefined while neither is in. `scan` carries the position between reads, so each
 * byte is looked at once. A `---` not yet followed by its line break is left for the next read:
 * it may be the start of `----`.
 */
function headEnd(length: number, scan: { from: number; lines: number }): number | undefined {
  for (let newline = scratch.indexOf(NEWLINE, scan.from); newline !== -1 && newline < length; newline = scratch.indexOf(NEWLINE, scan.from)) {
    const start = scan.from;
    scan.from = newline + 1;
    scan.lines++;
    const lineLength = newline > start && scratch[newline - 1] === 0x0d ? newline - 1 - start : newline - start;
    if (lineLength === 3 && scratch[start] === 0x2d && scratch[start + 1] === 0x2d && scratch[start + 2] === 0x2d) return scan.from;
    if (scan.lines >= HEAD_MAX_LINES) return scan.from;
  }
  return undefined;
}

/** The first line (bounded by 1 KiB) for labelling an unindexed file; nothing after it is decoded. */
function firstLineOf(fd: number, length: number): { kind: "first-line"; firstLine: string; bytesRead: number } {
  let newline = scratch.subarray(0, length).indexOf(NEWLINE);
  while (newline === -1 && length < FIRST_LINE_MAX_BYTES) {
    const n = readSync(fd, scratch, length, Math.min(LINE_STEP, FIRST_LINE_MAX_BYTES - length), length);
    if (n === 0) break;
    newline = scratch.subarray(length, length + n).indexOf(NEWLINE);
    if (newline !== -1) newline += length;
    length += n;
  }
  const line = decodeScratch(newline === -1 ? length : newline).replace(/\r$/, "");
  return { kind: "first-line", firstLine: line.slice(0, 200), bytesRead: length };
}
