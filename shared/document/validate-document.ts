import { CE_CONTRACT } from "../ce/contract.js";
import { parseCeDocument } from "../ce/document.js";
import { type KernelDocumentSchema, validateKernelDocument } from "../kernel/validate.js";
import { namedLikeJson, startsLikeJson } from "./sniff.js";

/**
 * What `handoff validate` says about one document: a ce-handoff/v1 Markdown file, or a kernel
 * JSON document (handoff manifest, checkpoint or context receipt, by its `schema` field). For
 * kernel documents the verdict is kernel's reference validator's (docs/conformance.md); checks
 * Handoff makes beyond it are `warnings` and never change the verdict.
 */

/** The disk's part of the contract (symlinks out of the repository), done by the client. */
export type PathCheck = (value: unknown) => { path: string; message: string }[];

export type ValidateFormat = typeof CE_CONTRACT | KernelDocumentSchema | "kernel";

export interface ValidateReport {
  file: string;
  format: ValidateFormat;
  valid: boolean;
  /** Set when the document could not be parsed at all (exit 2). */
  unparseable?: string;
  issues: { path: string; message: string }[];
  /** Advisories: valid either way, exit 0 when these are all there is. */
  warnings: { path: string; message: string }[];
}

/**
 * Validates the text of a handoff file; pure apart from the name it reports.
 *
 * @example
 * ```ts
 * validateDocumentText("notes.md", "# no frontmatter").issues[0] // { path: "frontmatter", message: "is missing: ..." }
 * validateDocumentText("m.json", manifestWithShortCommit).warnings[0].path // "provenance.commit"
 * ```
 */
export function validateDocumentText(file: string, text: string, options: { pathCheck?: PathCheck } = {}): ValidateReport {
  if (namedLikeJson(file) || startsLikeJson(text)) {
    const kernel = validateKernelDocument(text);
    const report: ValidateReport = { file, format: kernel.schema ?? "kernel", valid: kernel.ok, issues: kernel.issues, warnings: kernel.warnings };
    const escapes = kernel.ok && options.pathCheck ? options.pathCheck(kernel.value) : [];
    if (escapes.length > 0) Object.assign(report, { valid: false, issues: escapes });
    // Not JSON, a BOM, or JSON with a duplicate key (an error, never last-wins): unparseable, exit 2.
    const parse = kernel.parseError;
    if (parse) {
      report.unparseable = `line ${parse.line}, column ${parse.column}: ${parse.message}`;
      if (report.issues.length === 0) report.issues = [{ path: parse.path ?? "$", message: report.unparseable }];
    }
    return report;
  }
  // A BOM before a Markdown file's frontmatter is an editor's habit, not content.
  // Read whole: the contract's 64-line / 16 KiB bounds are discovery's, so past them is a warning.
  const doc = parseCeDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, { whole: true });
  const warnings = doc.undiscoverable === undefined ? [] : [{ path: "frontmatter", message: doc.undiscoverable }];
  const report: ValidateReport = { file, format: CE_CONTRACT, valid: doc.issues.length === 0, issues: doc.issues, warnings };
  if (doc.unparseable !== undefined) report.unparseable = doc.unparseable;
  return report;
}
