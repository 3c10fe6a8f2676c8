import type { CE_CONTRACT } from "../ce/contract.js";
import { type KernelDocumentSchema, validateKernelDocument } from "../kernel/validate.js";
import { namedLikeJson, startsLikeJson } from "./json-sniff.js";

/**
 * What `handoff validate` says about one document (validate-document.ts), its kernel half on its
 * own: a kernel JSON document (handoff manifest, checkpoint or context receipt, by its `schema`
 * field) is judged without loading anything of the Markdown contract. The verdict is kernel's
 * reference validator's (docs/conformance.md); checks Handoff makes beyond it are `warnings` and
 * never change the verdict.
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
 * Whether validate reads a file as a kernel JSON document (by its name or its first character),
 * else as ce-handoff/v1 Markdown.
 *
 * @example
 * ```ts
 * readsAsKernel("notes.md", '{"schema": "kernel.handoff/v1"}') // true
 * readsAsKernel("notes.md", "# Notes") // false
 * ```
 */
export function readsAsKernel(file: string, text: string): boolean {
  return namedLikeJson(file) || startsLikeJson(text);
}

/**
 * The report on a file that {@link readsAsKernel}; pure apart from the name it reports.
 *
 * @example
 * ```ts
 * validateKernelReport("m.json", manifestWithShortCommit).warnings[0].path // "provenance.commit"
 * ```
 */
export function validateKernelReport(file: string, text: string, options: { pathCheck?: PathCheck } = {}): ValidateReport {
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
