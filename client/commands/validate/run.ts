import { resolve } from "node:path";
import { isHandoffError } from "../../../shared/errors.js";
import { MAX_DOCUMENT_BYTES as VALIDATE_LIMIT } from "../../../shared/document/size-limits.js";
import { type ValidateReport, readsAsKernel, validateKernelReport } from "../../../shared/document/kernel-report.js";
import { implement } from "../command.js";
import { symlinkEscapes } from "../../lib/kernel-paths.js";
import { readTextFile } from "../../platform/read-file.js";
import { oneLine, terminalSafe } from "../../platform/terminal.js";
import type { validateSpec } from "./spec.js";

/** The report, or why the file could not be read at all (validate's exit 2, like unparseable). */
export type ValidateResult = ValidateReport | { file: string; format: null; valid: false; unparseable: string; hint?: string; issues: { path: string; message: string }[]; warnings: [] };

export const command = implement<typeof validateSpec>()({
  async run({ positionals, ctx }): Promise<ValidateResult> {
    const file = positionals[0]!;
    let text: string;
    try {
      text = readTextFile(resolve(ctx.cwd, file), VALIDATE_LIMIT, {
        what: "the handoff",
        notUtf8Reason: "unreadable",
        keepBom: true,
        tooLargeHint: "check the path: that is too large to be a handoff",
      });
    } catch (error) {
      // validate reports an unreadable file like an unparseable one (exit 2): see docs/cli.md.
      if (!isHandoffError(error)) throw error;
      return { file, format: null, valid: false, unparseable: error.message, issues: [{ path: "", message: error.message }], warnings: [], ...(error.hint ? { hint: error.hint } : {}) };
    }
    const options = { pathCheck: (value: unknown) => symlinkEscapes(value, ctx.cwd, ctx.env) };
    if (readsAsKernel(file, text)) return validateKernelReport(file, text, options);
    // The Markdown contract's modules (frontmatter, YAML, its zod schema) are set up only for Markdown.
    const { validateDocumentText } = await import("../../../shared/document/validate-document.js");
    return validateDocumentText(file, text, options);
  },
  human: (report) =>
    report.format === null
      ? { err: `handoff validate: ${terminalSafe(report.unparseable ?? "")}${"hint" in report && report.hint ? `\n  ${terminalSafe(String(report.hint))}` : ""}` }
      : { out: formatReport(report) },
  outcome: (report) => (report.unparseable !== undefined ? "unparseable" : report.valid ? "ok" : "invalid_document"),
});

function formatReport(report: ValidateReport): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const warned = report.warnings.length === 0 ? "" : `, ${plural(report.warnings.length, "warning")}`;
  const verdict = report.valid ? "valid" : report.unparseable !== undefined ? "unparseable" : "invalid";
  const problems = report.valid ? "" : `, ${plural(report.issues.length, "problem")}`;
  const lines = [`${report.file}: ${verdict} ${report.format}${problems}${warned}`];
  // Issue messages quote the document: escaped before the terminal sees them.
  for (const issue of report.issues) lines.push(oneLine(`  ${issue.path || "(document)"}: ${issue.message}`));
  for (const warning of report.warnings) lines.push(oneLine(`  warning: ${warning.path || "(document)"}: ${warning.message}`));
  return lines.join("\n");
}
