import { redactWith } from "./engine.js";
import { RULES } from "./rules.js";
import type { RedactOptions, RedactionReport, RedactionResult } from "./types.js";

export type { RedactOptions, RedactionReport, RedactionResult } from "./types.js";

/**
 * Replaces every secret in `text` by `[REDACTED:<rule-id>]` and reports where each was, never
 * what it was. Throws `HandoffError("redaction_failed")` when the scan cannot finish before
 * the deadline, so callers fail closed: nothing unscanned is written or sent.
 *
 * @example
 * ```ts
 * const result = redactText("GITHUB_TOKEN=" + token + "\n");
 * result.text // "GITHUB_TOKEN=[REDACTED:github-token]\n"
 * result.findings // [{ rule: "github-token", line: 1, column: 14, length: 40 }]
 * result.counts // { "github-token": 1 }
 * ```
 */
export function redactText(text: string, options?: RedactOptions): RedactionResult {
  return redactWith(text, RULES, options);
}

/**
 * The report `redactText` would give, without the redacted text (for previews such as
 * `handoff scan`).
 *
 * @example
 * ```ts
 * scanText("nothing to see").findings // []
 * ```
 */
export function scanText(text: string, options?: RedactOptions): RedactionReport {
  const { findings, counts, complete } = redactText(text, options);
  return { findings, counts, complete };
}
