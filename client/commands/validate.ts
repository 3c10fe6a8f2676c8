import { resolve } from "node:path";
import { parseCeDocument } from "../../shared/ce/document.js";
import { CE_CONTRACT } from "../../shared/ce/contract.js";
import { isHandoffError } from "../../shared/errors.js";
import { namedLikeJson, startsLikeJson } from "../../shared/sniff.js";
import { validateKernelText } from "../../shared/kernel/validate.js";
import { MAX_DOCUMENT_BYTES as VALIDATE_LIMIT } from "../../shared/size-limits.js";
import { implement } from "../command.js";
import type { validateSpec } from "../registry.js";
import { readTextFile } from "../read-file.js";

export type ValidateFormat = typeof CE_CONTRACT | "kernel.handoff/v1";

export interface ValidateReport {
  file: string;
  /** null when the file could not be read at all. */
  format: ValidateFormat | null;
  valid: boolean;
  /** Set when the document could not be read or parsed at all (exit 2). */
  unparseable?: string;
  /** What to do about an unreadable file. */
  hint?: string;
  issues: { path: string; message: string }[];
}

/**
 * Validates the text of a handoff file; pure apart from the name it reports.
 *
 * @example
 * ```ts
 * validateHandoffText("notes.md", "# no frontmatter").issues[0] // { path: "frontmatter", message: "is missing: ..." }
 * ```
 */
export function validateHandoffText(file: string, text: string): ValidateReport {
  if (namedLikeJson(file) || startsLikeJson(text)) {
    const kernel = validateKernelText(text);
    const report: ValidateReport = { file, format: "kernel.handoff/v1", valid: kernel.ok, issues: kernel.issues };
    // Not JSON, or JSON with a duplicate key (an error, never last-wins): unparseable, exit 2.
    const parse = kernel.parseError;
    if (parse) {
      report.unparseable = `line ${parse.line}, column ${parse.column}: ${parse.message}`;
      if (report.issues.length === 0) report.issues = [{ path: parse.path ?? "$", message: report.unparseable }];
    }
    return report;
  }
  const doc = parseCeDocument(text);
  const report: ValidateReport = { file, format: CE_CONTRACT, valid: doc.issues.length === 0, issues: doc.issues };
  if (doc.unparseable !== undefined) report.unparseable = doc.unparseable;
  return report;
}

export const command = implement<typeof validateSpec>()({
  async run({ positionals, io }): Promise<ValidateReport> {
    const file = positionals[0]!;
    try {
      return validateHandoffText(file, readText(resolve(io.cwd, file)));
    } catch (error) {
      // validate reports an unreadable file like an unparseable one (exit 2): see docs/cli.md.
      if (!isHandoffError(error)) throw error;
      return { file, format: null, valid: false, unparseable: error.message, issues: [{ path: "", message: error.message }], ...(error.hint ? { hint: error.hint } : {}) };
    }
  },
  human: (report) => (report.format === null ? { err: `handoff validate: ${report.unparseable ?? "unreadable"}${report.hint ? `\n  ${report.hint}` : ""}` } : { out: formatReport(report) }),
  outcome: (report) => (report.unparseable !== undefined ? "unparseable" : report.valid ? "ok" : "invalid_document"),
});

function readText(path: string): string {
  return readTextFile(path, VALIDATE_LIMIT, { what: "the handoff", notUtf8Reason: "unreadable", tooLargeHint: "check the path: that is too large to be a handoff" });
}

function formatReport(report: ValidateReport): string {
  if (report.valid) return `${report.file}: valid ${report.format}`;
  const verdict = report.unparseable !== undefined ? "unparseable" : "invalid";
  const lines = [`${report.file}: ${verdict} ${report.format}, ${report.issues.length} problem${report.issues.length === 1 ? "" : "s"}`];
  for (const issue of report.issues) lines.push(`  ${issue.path || "(document)"}: ${issue.message}`);
  return lines.join("\n");
}
