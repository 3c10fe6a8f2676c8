import { CHANGES_LIMITS } from "../../../shared/changes/bundle.js";
import { HandoffError } from "../../../shared/errors.js";
import { redactText } from "../../../shared/redact/index.js";
import { type ByteScan, describeFindings, scanBytes, scanName, scanPatchPart } from "../../../shared/redact/scan-bytes.js";

/**
 * The secret scan's verdict on one file of a changes bundle (issue 34, "Capture"): the scan sees
 * what the bytes decode to (shared/redact/scan-bytes.ts), the file's name included. A file with
 * a secret is left out and named (a secret in the name redacted, shownPath); one the scan cannot
 * read (an archive, binary data) travels only when the sender allows it (--allow-unscanned).
 */
export interface FileVerdict {
  /** The reason to leave it out, when a secret was found (rule ids and where, never the value). */
  secret?: string;
  /** What the scan could not read, when nothing was found in what it could. */
  unscannable?: string;
}

/** Expansions (gzip, a binary change's sides) stop where reading a changed file does. */
const OPTIONS = { maxExpandedBytes: CHANGES_LIMITS.totalBytes * 8 };

function verdict(path: string, scan: ByteScan): FileVerdict {
  const findings = [...scanName(path), ...scan.findings];
  if (findings.length > 0) return { secret: `holds a secret (${describeFindings(findings)}): left out, never sent` };
  return scan.unscannable === undefined ? {} : { unscannable: scan.unscannable };
}

/** A path as the manifest and messages may show it: a secret in a file name is redacted there too. */
export function shownPath(path: string): string {
  return redactText(path).text;
}

/** A changed tracked file: its part of the patch, and for a binary change the working file that anchors a delta. */
export async function judgeChangedFile(path: string, part: Uint8Array, current: Uint8Array | undefined): Promise<FileVerdict> {
  return verdict(path, await scanPatchPart(part, current, OPTIONS));
}

/** An untracked file, whole. */
export async function judgeNewFile(path: string, bytes: Uint8Array): Promise<FileVerdict> {
  return verdict(path, await scanBytes(bytes, OPTIONS));
}

/** The refusal when files cannot be scanned and the sender did not allow them: each named, with what it is. */
export function unscannableError(files: readonly { path: string; what: string }[]): HandoffError {
  const shown = files.slice(0, 10).map((f) => `${f.path} (${f.what})`);
  const more = files.length > 10 ? `, and ${files.length - 10} more` : "";
  return new HandoffError("unscannable", `--with-changes: ${files.length === 1 ? "1 file" : `${files.length} files`} cannot be scanned for secrets: ${shown.join(", ")}${more}; nothing was written`, {
    hint: "check them yourself, then send them as they are with --allow-unscanned; or commit them, add them to .gitignore, or leave out --with-changes",
    details: { files },
  });
}
