import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { type ErrorReason, HandoffError } from "../../shared/errors.js";
import { describeFsError } from "./fs.js";

/**
 * The CLI's one way to read a file it was pointed at: opened non-blocking and checked on the
 * opened descriptor, so a FIFO or device never hangs us and a path swapped after a check cannot
 * slip past; bounded, so a wrong selection cannot flood memory; every failure a HandoffError
 * that names the file as the user gave it and says what is wrong with it.
 */

export interface ReadOptions {
  /** What the file is, for messages: "--body-file", "the source", "the manifest". */
  what: string;
  /** The path as the user gave it (defaults to the resolved path). */
  label?: string;
  /** Refuse a symlink at the path itself. */
  noFollow?: boolean;
}

/**
 * At most `limit` bytes of a regular file; "too_large" rather than a silent cut.
 *
 * @example
 * ```ts
 * readRegularFile("/tmp/notes.md", 1024 * 1024, { what: "--body-file" }) // Uint8Array [...]
 * ```
 */
export function readRegularFile(path: string, limit: number, options: ReadOptions): Uint8Array | "too_large" {
  const label = options.label ?? path;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (cause) {
    throw unreadable(options.what, label, describeFsError(cause), cause);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw unreadable(options.what, label, "it is a folder, not a file");
    if (!stat.isFile()) throw unreadable(options.what, label, "not a regular file");
    if (stat.size > limit) return "too_large";
    // The file may grow after fstat: read one byte past the cap to notice.
    const buffer = new Uint8Array(Math.min(stat.size, limit) + 1);
    let size = 0;
    for (let n = -1; n !== 0 && size < buffer.length; size += n) n = readSync(fd, buffer, size, buffer.length - size, size);
    return size > limit ? "too_large" : buffer.subarray(0, size);
  } catch (cause) {
    if (cause instanceof HandoffError) throw cause;
    throw unreadable(options.what, label, describeFsError(cause), cause);
  } finally {
    closeSync(fd);
  }
}

export interface TextReadOptions extends ReadOptions {
  /** What to suggest when the file is over the cap. */
  tooLargeHint?: string;
  /** The reason for bytes that are not UTF-8: invalid input (exit 1) unless a command says otherwise. */
  notUtf8Reason?: ErrorReason;
  /** Keep a leading byte order mark in the text instead of dropping it. */
  keepBom?: boolean;
}

/** A regular file of at most `limit` bytes as strict UTF-8 text. */
export function readTextFile(path: string, limit: number, options: TextReadOptions): string {
  const bytes = readRegularFile(path, limit, options);
  const label = options.label ?? path;
  if (bytes === "too_large") throw tooLarge(label, limit, options.tooLargeHint);
  return decodeUtf8(bytes, label, options.notUtf8Reason, options.keepBom);
}

export function tooLarge(label: string, limit: number, hint?: string): HandoffError {
  return new HandoffError("too_large", `${label} is larger than ${limit} bytes (${formatSize(limit)})`, {
    hint: hint ?? "a handoff is a small pointer-first document: check that this is the file you meant",
  });
}

/** `keepBom`: leave a leading U+FEFF in the text (kernel JSON must not have one; the validator says so). */
export function decodeUtf8(bytes: Uint8Array, label: string, reason: ErrorReason = "invalid_document", keepBom = false): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: keepBom }).decode(bytes);
  } catch (cause) {
    throw new HandoffError(reason, `${label} is not valid UTF-8 text`, { hint: "handoffs are UTF-8 Markdown, text or JSON", cause });
  }
}

function unreadable(what: string, label: string, why: string, cause?: unknown): HandoffError {
  const hint = why === "no such file" ? "check the path" : why === "permission denied" ? "check the file's permissions" : `pass a regular file as ${what}`;
  return new HandoffError("unreadable", `cannot read ${label}: ${why}`, { hint, details: { what }, cause });
}

function formatSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
