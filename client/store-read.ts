import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { HandoffError } from "../shared/errors.js";

/**
 * Reads a regular file, at most `limit` bytes. It is opened non-blocking and checked on the
 * opened descriptor, so a FIFO or device never hangs us and a swapped path cannot slip past.
 * Returns "too_large" rather than silently cutting. `noFollow` refuses a symlink at `path`.
 */
export function readRegularFile(path: string, limit: number, options: { what: string; noFollow?: boolean }): Uint8Array | "too_large" {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new HandoffError("unreadable", `cannot read ${options.what} ${path}${code ? ` (${code})` : ""}`, {
      hint: code === "ENOENT" ? "check the path" : code === "EISDIR" ? "pass a file, not a folder" : "check the file's permissions",
      cause,
    });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new HandoffError("unreadable", `${options.what} ${path} is not a regular file`, { hint: "pass a regular file" });
    const buffer = new Uint8Array(Math.min(stat.size, limit) + 1);
    let size = 0;
    for (let n = -1; n !== 0 && size < buffer.length; size += n) n = readSync(fd, buffer, size, buffer.length - size, size);
    return size > limit ? "too_large" : buffer.subarray(0, size);
  } finally {
    closeSync(fd);
  }
}
