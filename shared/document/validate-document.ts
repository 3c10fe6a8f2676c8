import { CE_CONTRACT } from "../ce/contract.js";
import { parseCeDocument } from "../ce/document.js";
import { type PathCheck, type ValidateReport, readsAsKernel, validateKernelReport } from "./kernel-report.js";

/**
 * What `handoff validate` says about one document: a ce-handoff/v1 Markdown file, or a kernel
 * JSON document (kernel-report.ts, which the validate command runs alone for JSON).
 */

export type { PathCheck, ValidateReport } from "./kernel-report.js";

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
  if (readsAsKernel(file, text)) return validateKernelReport(file, text, options);
  // A BOM before a Markdown file's frontmatter is an editor's habit, not content.
  // Read whole: the contract's 64-line / 16 KiB bounds are discovery's, so past them is a warning.
  const doc = parseCeDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, { whole: true });
  const warnings = doc.undiscoverable === undefined ? [] : [{ path: "frontmatter", message: doc.undiscoverable }];
  const report: ValidateReport = { file, format: CE_CONTRACT, valid: doc.issues.length === 0, issues: doc.issues, warnings };
  if (doc.unparseable !== undefined) report.unparseable = doc.unparseable;
  return report;
}
