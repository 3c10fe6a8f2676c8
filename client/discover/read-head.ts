import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** The contract's bounds for reading frontmatter during discovery. */
export const HEAD_MAX_BYTES = 16 * 1024;
export const HEAD_MAX_LINES = 64;
const CHUNK = 2048;

export type HeadRead =
  | { kind: "head"; bytes: Uint8Array; bytesRead: number }
  | { kind: "first-line"; firstLine: string; bytesRead: number }
  | { kind: "skipped"; reason: "not-regular" | "unreadable" };

/**
 * Reads the start of a candidate without ever blocking or reading past the contract's bounds.
 * Opened with O_NOFOLLOW (a symlink planted since enumeration is refused) and O_NONBLOCK (a
 * FIFO swapped in cannot hang us), then fstat on the descriptor: only a regular file is read.
 * A file that does not start with the exact `---` line yields its first line only; one that
 * does is read in small chunks until the closing delimiter, 64 lines or 16 KiB.
 */
export function readCandidateHead(path: string): HeadRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { kind: "skipped", reason: "unreadable" };
  }
  try {
    if (!fstatSync(fd).isFile()) return { kind: "skipped", reason: "not-regular" };
    const buffer = Buffer.allocUnsafe(HEAD_MAX_BYTES);
    let length = 0;
    // First line only, at most: an opener is "---\n" or "---\r\n".
    length += readSync(fd, buffer, 0, 5, 0);
    const opener = buffer.subarray(0, length).toString("latin1");
    if (!(opener.startsWith("---\n") || opener === "---\r\n")) {
      return { kind: "first-line", firstLine: firstLineOf(fd, buffer, length), bytesRead: length };
    }
    while (length < HEAD_MAX_BYTES) {
      const n = readSync(fd, buffer, length, Math.min(CHUNK, HEAD_MAX_BYTES - length), length);
      if (n === 0) break;
      const before = length;
      length += n;
      if (closesWithin(buffer, before, length)) break;
    }
    return { kind: "head", bytes: buffer.subarray(0, length), bytesRead: length };
  } catch {
    return { kind: "skipped", reason: "unreadable" };
  } finally {
    closeSync(fd);
  }
}

/** True once the bytes read so far contain a closing `---` line or 64 lines. */
function closesWithin(buffer: Buffer, from: number, to: number): boolean {
  const text = buffer.subarray(0, to).toString("latin1");
  if (/\n---\r?\n/.test(text.slice(Math.max(0, from - 5))) || /\n---\r?$/.test(text)) return true;
  let lines = 0;
  for (let i = 0; i < to; i++) if (buffer[i] === 10 && ++lines >= HEAD_MAX_LINES) return true;
  return false;
}

/** Reads up to the end of the first line (bounded by 1 KiB) for labelling an unindexed file. */
function firstLineOf(fd: number, buffer: Buffer, length: number): string {
  let text = buffer.subarray(0, length).toString("utf8");
  if (!text.includes("\n") && length === 5) {
    const more = readSync(fd, buffer, length, 1024 - length, length);
    text = buffer.subarray(0, length + more).toString("utf8");
  }
  return (text.split(/\r?\n/, 1)[0] ?? "").slice(0, 200);
}
