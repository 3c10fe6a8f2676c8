import { resolve } from "node:path";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { scanText } from "../../shared/redact/index.js";
import type { RedactionReport } from "../../shared/redact/index.js";
import { parseCommandArgs } from "../args.js";
import { type Io, readStdin } from "../io.js";
import { decodeUtf8, readTextFile } from "../read-file.js";
import { stringifyForTerminal } from "../../shared/terminal-safe.js";

/** The largest input `handoff scan` reads: the same cap a handoff body has. */
export const SCAN_MAX_BYTES = 1024 * 1024;

export const help = `handoff scan FILE|-: preview secret redaction without writing anything.

Usage: handoff scan FILE [--json]
       handoff scan - [--json]        (read from stdin)

Reports, per rule, how many secrets a handoff create or publish would redact and on which
lines; never the secrets themselves. FILE must be a regular file of at most 1 MiB.

Options:
  --json       Print the report as JSON: {findings: [{rule, line, column, length}], counts, complete}.
  --verbose    Show internal causes of errors.
  -h, --help   Show this help.

Exit codes: 0 nothing found, 1 secrets found, 2 usage error, 3 unreadable input or the scan
could not finish.`;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("scan", args, {});
  if (positionals.length !== 1) {
    throw new HandoffError("usage", "handoff scan takes exactly one FILE, or - for stdin", { hint: "run 'handoff scan --help'" });
  }
  const source = positionals[0]!;
  const text =
    source === "-"
      ? decodeUtf8(await readStdinCapped(io), "stdin", "unreadable")
      : readTextFile(resolve(io.cwd, source), SCAN_MAX_BYTES, { what: "FILE", label: source, notUtf8Reason: "unreadable", tooLargeHint: "scan a smaller handoff" });
  const report = scanText(text);
  const found = report.findings.length > 0;
  if (values.json) io.out(stringifyForTerminal(report));
  else io.out(formatReport(source === "-" ? "stdin" : source, report));
  // Finding secrets is a normal outcome of a preview, not an error: report it, then exit 1.
  return found ? EXIT.domain : EXIT.ok;
}

/** The human report: a headline, then one line per rule with its count and line numbers. */
export function formatReport(name: string, report: RedactionReport): string {
  const total = report.findings.length;
  if (total === 0) return `${name}: no secrets found (nothing written)`;
  const byRule = new Map<string, number[]>();
  for (const finding of report.findings) {
    const lines = byRule.get(finding.rule) ?? [];
    if (lines.at(-1) !== finding.line) lines.push(finding.line);
    byRule.set(finding.rule, lines);
  }
  const width = Math.max(...[...byRule.keys()].map((rule) => rule.length));
  const rows = [...byRule].map(([rule, lines]) => {
    const count = report.counts[rule] ?? lines.length;
    return `  ${rule.padEnd(width)}  ${String(count).padStart(3)}  ${lines.length === 1 ? "line" : "lines"} ${lines.join(", ")}`;
  });
  const rules = byRule.size === 1 ? "1 rule" : `${byRule.size} rules`;
  return [`${name}: ${total} ${total === 1 ? "secret" : "secrets"} found by ${rules}; create and publish would redact them (nothing written)`, ...rows].join("\n");
}

async function readStdinCapped(io: Io): Promise<Uint8Array> {
  const bytes = await readStdin(io, SCAN_MAX_BYTES);
  if (bytes === "too_large") {
    throw new HandoffError("too_large", `stdin is larger than ${SCAN_MAX_BYTES} bytes (1 MiB)`, { hint: "scan a smaller handoff" });
  }
  return bytes;
}

