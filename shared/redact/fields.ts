import { redactText } from "./index.js";
import type { RedactOptions } from "./types.js";

/**
 * Redaction of a whole handoff, field by field: the body by its lines, and every metadata
 * string (title, summary, keywords, a manifest's values) on its own, so a replacement can never
 * break the document's structure (a JSON-quoted YAML scalar, a JSON string) around it.
 */

/** Where one secret was: a field (`body`, `title`, `keywords[1]`, `objective.goal`) and a line in it. */
export interface FieldFinding {
  rule: string;
  field: string;
  line: number;
  column: number;
}

/** The report `create` and `publish` print and put in --json: counts per rule and where, never what. */
export interface RedactionSummary {
  /** False only with --no-redact: nothing was scanned. */
  applied: boolean;
  total: number;
  counts: Record<string, number>;
  findings: FieldFinding[];
}

export const NOT_REDACTED: RedactionSummary = { applied: false, total: 0, counts: {}, findings: [] };

/** Collects findings from several fields into one summary. */
export class RedactionCollector {
  readonly findings: FieldFinding[] = [];

  constructor(private readonly options: RedactOptions = {}) {}

  /** Redacts one string field and records what was found in it. */
  text(field: string, value: string): string {
    const result = redactText(value, this.options);
    for (const finding of result.findings) this.findings.push({ rule: finding.rule, field, line: finding.line, column: finding.column });
    return result.text;
  }

  /**
   * Redacts every string inside a JSON value (object keys stay as they are: they are the
   * schema's names, not session text), reporting JSON paths as fields.
   */
  json(value: unknown, path = ""): unknown {
    if (typeof value === "string") return this.text(path || "$", value);
    if (Array.isArray(value)) return value.map((item, i) => this.json(item, `${path}[${i}]`));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = this.json(item, path ? `${path}.${key}` : key);
      return out;
    }
    return value;
  }

  summary(): RedactionSummary {
    const counts: Record<string, number> = {};
    for (const finding of this.findings) counts[finding.rule] = (counts[finding.rule] ?? 0) + 1;
    return { applied: true, total: this.findings.length, counts, findings: this.findings };
  }
}

/**
 * One line per rule for people: `github-token: 2 (body line 4, 9)`.
 *
 * @example
 * ```ts
 * describeRedaction({ applied: true, total: 1, counts: { "jwt": 1 }, findings: [{ rule: "jwt", field: "body", line: 3, column: 1 }] })
 * // ["jwt: 1 (body line 3)"]
 * ```
 */
export function describeRedaction(summary: RedactionSummary): string[] {
  return Object.entries(summary.counts)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([rule, count]) => {
      const places = summary.findings.filter((f) => f.rule === rule).map((f) => (f.field === "body" ? `body line ${f.line}` : f.line > 1 ? `${f.field} line ${f.line}` : f.field));
      const shown = places.slice(0, 8).join(", ") + (places.length > 8 ? `, +${places.length - 8} more` : "");
      return `${rule}: ${count} (${shown})`;
    });
}
