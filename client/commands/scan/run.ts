import { resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import { scanText } from "../../../shared/redact/index.js";
import { MAX_DOCUMENT_BYTES as SCAN_MAX_BYTES } from "../../../shared/document/size-limits.js";
import type { RedactionReport } from "../../../shared/redact/index.js";
import { implement } from "../command.js";
import type { scanSpec } from "./spec.js";
import { type Io, readStdin } from "../../platform/io.js";
import { decodeUtf8, readTextFile } from "../../platform/read-file.js";

export interface ScanResult extends RedactionReport {
  source: string;
}

export const command = implement<typeof scanSpec>()({
  async run({ positionals, io, ctx }): Promise<ScanResult> {
    const source = positionals[0]!;
    const text =
      source === "-"
        ? decodeUtf8(await readStdinCapped(io), "stdin", "unreadable")
        : readTextFile(resolve(ctx.cwd, source), SCAN_MAX_BYTES, { what: "FILE", label: source, notUtf8Reason: "unreadable", tooLargeHint: "scan a smaller handoff" });
    return { source: source === "-" ? "stdin" : source, ...scanText(text) };
  },
  human: (result) => ({ out: formatReport(result.source, result) }),
  // Finding secrets is a normal outcome of a preview, not an error: reported, then exit 1.
  outcome: (result) => (result.findings.length > 0 ? "secrets_found" : "ok"),
  json: ({ source: _source, ...report }) => report,
});

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
