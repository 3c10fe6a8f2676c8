/** One redacted region. Never carries the secret: only where it was and how long it was. */
export interface RedactionFinding {
  /** Rule id, e.g. `github-token`; the replacement text is `[REDACTED:<rule>]`. */
  rule: string;
  /** 1-based line of the first redacted character. */
  line: number;
  /** 1-based column (UTF-16 code units) of the first redacted character. */
  column: number;
  /** Length of the redacted region in UTF-16 code units. */
  length: number;
}

/** What `scanText` returns: the report without the text. */
export interface RedactionReport {
  findings: RedactionFinding[];
  /** Findings per rule id; rules that found nothing are absent. */
  counts: Record<string, number>;
  /**
   * True when every rule ran to the end. A scan that cannot finish throws
   * `redaction_failed` instead of returning, so a returned report is always complete; the
   * field is there so a saved or printed report states it.
   */
  complete: boolean;
}

/** What `redactText` returns: the redacted text and its report. */
export interface RedactionResult extends RedactionReport {
  text: string;
}

export interface RedactOptions {
  /** Give up (throw `redaction_failed`) after this many milliseconds. Default: 2 s per MiB, at least 2 s. */
  deadlineMs?: number;
  /** Clock in milliseconds; tests pass their own. Default `Date.now`. */
  now?: () => number;
}

/** What a rule hands the engine: a half-open range [start, end) of the text to replace. */
export interface Span {
  start: number;
  end: number;
  rule: string;
}

/** The view of the engine a rule works with. */
export interface RuleContext {
  readonly text: string;
  /** Records a region to redact. */
  emit(start: number, end: number, rule: string): void;
  /** Throws `redaction_failed` when the deadline has passed; rules call it inside long loops. */
  tick(): void;
}

/**
 * What docs/redaction.md's table says of one rule id (scripts/docs-tables.js writes it): what the
 * rule finds, the shape of it in words (never a string that looks like a live secret) and, when
 * only part is redacted, what stays.
 */
export interface RuleDoc {
  what: string;
  shape: string;
  stays?: string;
}

/**
 * A detector. Each one is written to run in linear time on any input: literal prefixes, bounded
 * repetitions, and no two quantifiers that can both consume the same characters.
 */
export interface Rule {
  /** The ids this rule can report, for docs and tests; the first is its name. */
  readonly ids: readonly string[];
  /** One entry per id, for the generated rule table in docs/redaction.md. */
  readonly docs: Readonly<Record<string, RuleDoc>>;
  /** Literals of which at least one must occur for the rule to run (a cheap prefilter). */
  readonly prefixes: readonly string[];
  /** Whether `prefixes` are matched case-insensitively. */
  readonly caseInsensitive?: boolean;
  find(ctx: RuleContext): void;
}
