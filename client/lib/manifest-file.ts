import { resolve } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import type { KernelHandoff } from "../../shared/kernel/schema.js";
import { validateKernelText } from "../../shared/kernel/validate.js";
import { detectFormat, startsLikeJson } from "../../shared/document/sniff.js";
import { MAX_DOCUMENT_BYTES as MANIFEST_READ_CAP } from "../../shared/document/size-limits.js";
import { readTextFile } from "../platform/read-file.js";

/** Kernel manifests as `render` and `context` read them: one reader, one verdict. */

/**
 * Reads a manifest as UTF-8 text through the CLI's one file reader: regular files only (a FIFO
 * is refused, never waited on), at most `cap` bytes, messages naming `path` as the user gave it.
 */
export async function readManifestFile(path: string, options: { cwd: string; cap?: number }): Promise<string> {
  return readTextFile(resolve(options.cwd, path), options.cap ?? MANIFEST_READ_CAP, {
    what: "the manifest",
    label: path,
    tooLargeHint: "check that this is the manifest you meant: a manifest is much smaller",
  });
}

/**
 * The manifest in `text`, or an `invalid_document` error (exit 1) that names the JSON syntax
 * error's line and column, or lists every issue as `path: message`. `source` names the file.
 */
export function validatedManifest(source: string, text: string): KernelHandoff {
  const sniffed = detectFormat(text);
  if (sniffed.format !== "kernel.handoff/v1" && !startsLikeJson(text)) {
    // Not JSON at all: a JSON syntax error at 1:1 would say nothing useful about a Markdown file.
    throw new HandoffError("invalid_document", `${source} is ${sniffed.format === "text" ? "plain text" : `a ${sniffed.format} Markdown document`}, not a kernel.handoff/v1 manifest (JSON)`, {
      hint: `render and context take kernel manifests; read a Markdown handoff with 'handoff show ${source}' or 'handoff resume ${source}'`,
    });
  }
  const validation = validateKernelText(text);
  if (validation.parseError) {
    const { line, column, message, path } = validation.parseError;
    throw new HandoffError("invalid_document", `${source}:${line}:${column}: ${message}`, {
      hint: "fix the JSON and rerun",
      details: { line, column, ...(path === undefined ? {} : { path }) },
    });
  }
  if (!validation.manifest) throw invalidManifest(source, validation.issues);
  return validation.manifest;
}

/** Every issue as `path: message`, the form `handoff validate` prints too. */
function invalidManifest(path: string, issues: { path: string; message: string }[]): HandoffError {
  const lines = issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n");
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return new HandoffError("invalid_document", `${path} is not a valid kernel.handoff/v1 manifest (${count}):\n${lines}`, {
    hint: `fix these and rerun; 'handoff validate ${path}' checks without rendering`,
    details: { issues },
  });
}
