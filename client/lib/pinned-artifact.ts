import { createHash } from "node:crypto";
import { type ReadOptions, readRegularFile } from "../platform/read-file.js";

/**
 * The largest file a kernel manifest pins (`create --pin`) and that resume re-hashes to check it:
 * 64 MiB (docs/cli.md, `--pin`; docs/resume.md, the artifact events). One limit on both sides, so
 * a file that could be pinned can always be checked, and a bigger one is refused when pinning
 * rather than read unboundedly later.
 */
export const PINNED_FILE_LIMIT = 64 * 1024 * 1024;

/**
 * The sha256 (hex) of a pinned file's bytes, as kernel's `provenance.artifacts[].sha256` records
 * it, or "too_large" over PINNED_FILE_LIMIT. An unreadable file throws readRegularFile's error.
 */
export function hashPinnedFile(path: string, options: ReadOptions): string | "too_large" {
  const bytes = readRegularFile(path, PINNED_FILE_LIMIT, options);
  return bytes === "too_large" ? bytes : createHash("sha256").update(bytes).digest("hex");
}
