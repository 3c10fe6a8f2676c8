import { resolve } from "node:path";
import { parseCeDocument } from "../../shared/ce/document.js";
import { CE_CONTRACT } from "../../shared/ce/contract.js";
import { EXIT, HandoffError, errorBody, isHandoffError } from "../../shared/errors.js";
import { validateKernelText } from "../../shared/kernel/validate.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { readTextFile } from "../read-file.js";
import { safeForTerminal, safeLineForTerminal, stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff validate FILE [--json]

Check a handoff against its contract: ce-handoff/v1 Markdown (frontmatter and body), or a
kernel.handoff/v1 manifest (a .json file, or content starting with '{').

Each problem is printed as 'json.path: message', e.g. 'frontmatter.created_at: must be ISO-8601 UTC'.

Exit codes (validate's own): 0 valid, 1 invalid, 2 unreadable or unparseable.
  --json   Print {file, format, valid, issues} on stdout.
`;

/** Handoffs are small; a larger file is not one. */
export const VALIDATE_LIMIT = 1024 * 1024;

export type ValidateFormat = typeof CE_CONTRACT | "kernel.handoff/v1";

export interface ValidateReport {
  file: string;
  format: ValidateFormat;
  valid: boolean;
  /** Set when the document could not be parsed at all (exit 2). */
  unparseable?: string;
  issues: { path: string; message: string }[];
}

/** 0 valid, 1 invalid, 2 unparseable: the exit codes issue 2 gives validate. */
export function validateExitCode(report: ValidateReport): number {
  if (report.unparseable !== undefined) return 2;
  return report.valid ? EXIT.ok : EXIT.domain;
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
  if (/\.json$/i.test(file) || /^\ufeff?\s*\{/.test(text)) {
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
  const report = validateHandoffText(file, text);
  if (values.json) io.out(stringifyForTerminal(report));
  else io.out(formatReport(report));
  return validateExitCode(report);
}

function readText(path: string): string {
  return readTextFile(path, VALIDATE_LIMIT, { what: "the handoff", notUtf8Reason: "unreadable", tooLargeHint: "check the path: that is too large to be a handoff" });
}

function formatReport(report: ValidateReport): string {
  if (report.valid) return `${report.file}: valid ${report.format}`;
  const verdict = report.unparseable !== undefined ? "unparseable" : "invalid";
  const lines = [`${report.file}: ${verdict} ${report.format}, ${report.issues.length} problem${report.issues.length === 1 ? "" : "s"}`];
  for (const issue of report.issues) lines.push(safeLineForTerminal(`  ${issue.path || "(document)"}: ${issue.message}`));
  return lines.join("\n");
}
