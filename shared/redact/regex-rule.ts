import type { Rule, RuleContext, RuleDoc } from "./types.js";

/** What a match turns into: a region and its rule id, or nothing for a rejected candidate. */
export type Classify = (match: RegExpExecArray) => { start: number; end: number; rule: string } | undefined;

export interface RegexRuleSpec {
  ids: readonly string[];
  docs: Readonly<Record<string, RuleDoc>>;
  prefixes: readonly string[];
  caseInsensitive?: boolean;
  /**
   * Must carry the `g` and `d` flags. Written to be linear: it starts at a literal or behind a
   * boundary lookbehind, and every repetition is bounded or stops at a character it cannot
   * contain, so a failed start costs at most a bounded number of steps.
   */
  pattern: RegExp;
  /** Default: the `secret` named group if there is one, else the whole match, as `ids[0]`. */
  classify?: Classify;
}

/** Index range of the `secret` group, or of the whole match. */
export function secretRange(match: RegExpExecArray): { start: number; end: number } {
  const group = match.indices?.groups?.secret;
  if (group !== undefined) return { start: group[0], end: group[1] };
  return { start: match.index, end: match.index + match[0].length };
}

/** A rule made of one regular expression and an optional check of each candidate. */
export function regexRule(spec: RegexRuleSpec): Rule {
  const rule = spec.ids[0] ?? "unnamed";
  const classify: Classify = spec.classify ?? ((match) => ({ ...secretRange(match), rule }));
  return {
    ids: spec.ids,
    docs: spec.docs,
    prefixes: spec.prefixes,
    caseInsensitive: spec.caseInsensitive ?? false,
    find(ctx: RuleContext) {
      // A fresh copy: a shared global regex keeps lastIndex between calls.
      const pattern = new RegExp(spec.pattern.source, spec.pattern.flags);
      let count = 0;
      for (let match = pattern.exec(ctx.text); match !== null; match = pattern.exec(ctx.text)) {
        if (match[0].length === 0) pattern.lastIndex++;
        const hit = classify(match);
        if (hit !== undefined) ctx.emit(hit.start, hit.end, hit.rule);
        if ((++count & 0x3ff) === 0) ctx.tick();
      }
    },
  };
}
