import { HandoffError } from "../errors.js";
import type { RedactOptions, RedactionFinding, RedactionReport, RedactionResult, Rule, RuleContext, Span } from "./types.js";

const MIB = 1024 * 1024;
const DEFAULT_MS_PER_MIB = 2000;

interface RankedSpan extends Span {
  /** Index of the rule in the rule list: on a tie the more specific (earlier) rule names the region. */
  priority: number;
}

/** The deadline a scan of `text` gets when the caller does not choose one. */
export function defaultDeadlineMs(text: string): number {
  return Math.max(DEFAULT_MS_PER_MIB, Math.ceil((text.length / MIB) * DEFAULT_MS_PER_MIB));
}

/**
 * Runs every rule over `text` and returns the merged regions to redact, earliest first.
 * Throws `redaction_failed` when the deadline passes, so no caller can mistake a partial scan
 * for a clean one.
 */
export function findSpans(text: string, rules: readonly Rule[], options: RedactOptions = {}): Span[] {
  const now = options.now ?? Date.now;
  const budget = options.deadlineMs ?? defaultDeadlineMs(text);
  const started = now();
  const deadline = started + budget;
  let lower: string | undefined;
  const spans: RankedSpan[] = [];
  let priority = 0;
  let current = "";

  const tick = (): void => {
    if (now() > deadline) {
      throw new HandoffError("redaction_failed", `secret scanning did not finish within ${budget} ms (stopped in rule ${current})`, {
        hint: "nothing was written or sent; retry, or split the input",
        details: { deadlineMs: budget, rule: current, chars: text.length },
      });
    }
  };
  const ctx: RuleContext = {
    text,
    emit(start, end, rule) {
      if (end > start) spans.push({ start, end, rule, priority });
    },
    tick,
  };

  for (const [index, rule] of rules.entries()) {
    current = rule.ids[0] ?? String(index);
    tick();
    priority = index;
    if (rule.caseInsensitive) lower ??= text.toLowerCase();
    const haystack = rule.caseInsensitive ? (lower ?? text) : text;
    if (!rule.prefixes.some((prefix) => haystack.includes(prefix))) continue;
    rule.find(ctx);
  }
  tick();
  return mergeSpans(spans);
}

/**
 * Sorts and merges overlapping regions. The earliest start wins, then the longest, then the
 * earlier rule; an overlapping region extends the winner so no fragment of either survives.
 */
export function mergeSpans(spans: RankedSpan[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || a.priority - b.priority);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last !== undefined && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
    } else {
      merged.push({ start: span.start, end: span.end, rule: span.rule });
    }
  }
  return merged;
}

/** Turns merged regions into the report: line and column of each, counts per rule. */
export function reportFor(text: string, spans: readonly Span[]): RedactionReport {
  const findings: RedactionFinding[] = [];
  const counts: Record<string, number> = {};
  let line = 1;
  let lineStart = 0;
  // Spans come sorted, so one forward walk over the newlines serves all of them; the next newline
  // is kept between spans, so many findings on one long line never search its rest again.
  let nl = text.indexOf("\n");
  for (const span of spans) {
    while (nl !== -1 && nl < span.start) {
      line++;
      lineStart = nl + 1;
      nl = text.indexOf("\n", nl + 1);
    }
    findings.push({ rule: span.rule, line, column: span.start - lineStart + 1, length: span.end - span.start });
    counts[span.rule] = (counts[span.rule] ?? 0) + 1;
  }
  return { findings, counts, complete: true };
}

/** Replaces each region by `[REDACTED:<rule>]`. */
export function applySpans(text: string, spans: readonly Span[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(text.slice(at, span.start), `[REDACTED:${span.rule}]`);
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** Redacts with a given rule list (the public entry uses the built-in one). */
export function redactWith(text: string, rules: readonly Rule[], options?: RedactOptions): RedactionResult {
  const spans = findSpans(text, rules, options);
  return { text: applySpans(text, spans), ...reportFor(text, spans) };
}
