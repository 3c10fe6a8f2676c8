import { resolve } from "node:path";
import { HandoffError, errorBody, isHandoffError } from "../../shared/errors.js";
import { type ValidateReport, validateDocumentText, validateExitCode } from "../../shared/validate-document.js";
import { parseCommandArgs } from "../args.js";
import { symlinkEscapes } from "../kernel-paths.js";
import type { Io } from "../io.js";
import { readTextFile } from "../read-file.js";
import { safeForTerminal, safeLineForTerminal, stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff validate FILE [--json]

Check a handoff against its contract: ce-handoff/v1 Markdown (frontmatter and body), or a kernel
JSON document (a .json file, or content starting with '{'): a kernel.handoff/v1 manifest, a
kernel.checkpoint/v1 or a kernel.context-receipt/v1, chosen by its "schema" field. A kernel
document's verdict is kernel's reference validator's (docs/conformance.md); Handoff's own extra
checks are listed as warnings and do not make it invalid.

Each problem is printed as 'json.path: message', e.g. 'frontmatter.created_at: must be ISO-8601 UTC'.

Exit codes (validate's own): 0 valid (warnings or not), 1 invalid, 2 unreadable or unparseable.
  --json   Print {file, format, valid, issues, warnings} on stdout.
`;

/** Handoffs are small; a larger file is not one. */
export const VALIDATE_LIMIT = 1024 * 1024;

export { type ValidateFormat, type ValidateReport, validateExitCode } from "../../shared/validate-document.js";

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("validate", args, {});
  if (positionals.length !== 1) {
    throw new HandoffError("usage", positionals.length === 0 ? "handoff validate needs a FILE" : "handoff validate takes one FILE", {
      hint: "run 'handoff validate FILE'",
    });
  }
  const file = positionals[0]!;
  let text: string;
  try {
    text = readText(resolve(io.cwd, file));
  } catch (error) {
    // validate reports an unreadable file as exit 2, not the usual 3: see docs/cli.md.
    if (!isHandoffError(error)) throw error;
    if (values.json) io.out(stringifyForTerminal(errorBody(error)));
    io.err(`handoff validate: ${safeForTerminal(error.message)}`);
    if (error.hint) io.err(`  ${safeForTerminal(error.hint)}`);
    return 2;
  }
  const report = validateDocumentText(file, text, { pathCheck: (value) => symlinkEscapes(value, io.cwd) });
  if (values.json) io.out(stringifyForTerminal(report));
  else io.out(formatReport(report));
  return validateExitCode(report);
}

function readText(path: string): string {
  return readTextFile(path, VALIDATE_LIMIT, { what: "the handoff", notUtf8Reason: "unreadable", keepBom: true, tooLargeHint: "check the path: that is too large to be a handoff" });
}

function formatReport(report: ValidateReport): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const warned = report.warnings.length === 0 ? "" : `, ${plural(report.warnings.length, "warning")}`;
  const verdict = report.valid ? "valid" : report.unparseable !== undefined ? "unparseable" : "invalid";
  const problems = report.valid ? "" : `, ${plural(report.issues.length, "problem")}`;
  const lines = [`${report.file}: ${verdict} ${report.format}${problems}${warned}`];
  // Issue messages quote the document: escaped before the terminal sees them.
  for (const issue of report.issues) lines.push(safeLineForTerminal(`  ${issue.path || "(document)"}: ${issue.message}`));
  for (const warning of report.warnings) lines.push(safeLineForTerminal(`  warning: ${warning.path || "(document)"}: ${warning.message}`));
  return lines.join("\n");
}
