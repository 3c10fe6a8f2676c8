/**
 * Grep for the context compiler: a pattern from a manifest is untrusted input run over
 * repository files, so it must not be able to hang the CLI. A pattern is used as a regular
 * expression only when it is valid, free of the shapes that backtrack exponentially (a
 * quantified group that itself holds a quantifier or an alternation, backreferences) and has
 * at most MAX_QUANTIFIERS quantifiers; otherwise it is a literal substring. Without nesting,
 * backtracking on a line of length L costs at most about L^(q+1) steps for q quantifiers; the
 * search charges that to a fixed budget and stops when it runs out, and every line is tested
 * on at most MAX_TESTED_LINE_CHARS characters. It also stops after MAX_GREP_MATCHES matches.
 */

export const MAX_TESTED_LINE_CHARS = 1000;
export const MAX_GREP_MATCHES = 200;
export const MAX_QUANTIFIERS = 2;
export const MAX_PATTERN_CHARS = 500;
/** Backtracking steps (by the L^(q+1) bound) one grep may spend. */
export const GREP_STEP_BUDGET = 200_000_000;
export const DEFAULT_GREP_CONTEXT = 3;
export const MAX_GREP_CONTEXT = 100;

export interface GrepMatcher {
  test(line: string): boolean;
  /** Worst-case steps to test this line. */
  cost(line: string): number;
  /** "regex", or "literal" with why. */
  mode: "regex" | "literal";
  why?: string;
}

/**
 * Builds the line test for a grep pattern.
 *
 * @example
 * ```ts
 * grepMatcher("TODO|FIXME").mode // "regex"
 * grepMatcher("(a+)+$").mode // "literal" (nested quantifier)
 * grepMatcher("foo(").mode // "literal" (not a valid regular expression)
 * ```
 */
export function grepMatcher(pattern: string): GrepMatcher {
  const analysis = analyseRegex(pattern);
  if (analysis.unsafe === undefined) {
    try {
      const regex = new RegExp(pattern);
      const power = analysis.quantifiers + 1;
      return {
        mode: "regex",
        test: (line) => regex.test(line.slice(0, MAX_TESTED_LINE_CHARS)),
        cost: (line) => Math.max(1, Math.min(line.length, MAX_TESTED_LINE_CHARS)) ** power,
      };
    } catch {
      return literal(pattern, "not a valid regular expression");
    }
  }
  return literal(pattern, analysis.unsafe);
}

function literal(pattern: string, why: string): GrepMatcher {
  return {
    mode: "literal",
    why,
    test: (line) => line.slice(0, MAX_TESTED_LINE_CHARS + pattern.length).includes(pattern),
    cost: (line) => Math.max(1, line.length),
  };
}

/**
 * Why a pattern could backtrack badly (undefined when it cannot), and how many quantifiers it
 * has. Conservative: it may refuse a safe pattern (then matched literally), never the reverse
 * for the shapes it knows.
 *
 * @example
 * ```ts
 * analyseRegex("^export (async )?function") // { quantifiers: 1 }
 * analyseRegex("(a+)+$") // { unsafe: "nested quantifiers can backtrack exponentially", quantifiers: 1 }
 * ```
 */
export function analyseRegex(pattern: string): { unsafe?: string; quantifiers: number } {
  if (pattern.length > MAX_PATTERN_CHARS) return { unsafe: `longer than ${MAX_PATTERN_CHARS} characters`, quantifiers: 0 };
  if (/\\[1-9]|\\k</.test(pattern)) return { unsafe: "backreferences are not allowed", quantifiers: 0 };
  let quantifiers = 0;
  // Per open group: whether it holds a quantifier or an alternation.
  const stack: { risky: boolean }[] = [];
  let lastClosedRisky = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      i++;
      lastClosedRisky = false;
      continue;
    }
    if (char === "[") {
      i = skipClass(pattern, i);
      lastClosedRisky = false;
      continue;
    }
    if (char === "(") {
      stack.push({ risky: false });
      lastClosedRisky = false;
      continue;
    }
    if (char === ")") {
      const group = stack.pop();
      lastClosedRisky = group?.risky ?? false;
      if (lastClosedRisky && stack.length > 0) markRisky(stack);
      continue;
    }
    const quantifier = char === "*" || char === "+" || char === "?" || (char === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    // "?" right after "(" is group syntax, and "+?"/"*?" are lazy markers, not new quantifiers.
    const isGroupSyntax = char === "?" && pattern[i - 1] === "(";
    if (quantifier && !isGroupSyntax) {
      if (lastClosedRisky && char !== "?") return { unsafe: "nested quantifiers can backtrack exponentially", quantifiers };
      const lazyMarker = char === "?" && /[*+?}]/.test(pattern[i - 1] ?? "");
      if (!lazyMarker) quantifiers++;
      markRisky(stack);
    } else if (char === "|") {
      markRisky(stack);
    }
    if (char !== ")") lastClosedRisky = false;
  }
  if (quantifiers > MAX_QUANTIFIERS) return { unsafe: `more than ${MAX_QUANTIFIERS} quantifiers`, quantifiers };
  return { quantifiers };
}

function markRisky(stack: { risky: boolean }[]): void {
  const top = stack[stack.length - 1];
  if (top) top.risky = true;
}

function skipClass(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]" && i > start + 1) return i;
  }
  return pattern.length;
}

export interface GrepResult {
  /** Merged windows, 0-based inclusive line indices. */
  windows: { from: number; to: number }[];
  matches: number;
  /** Why the search stopped before the last line, if it did. */
  stopped?: "match limit" | "step budget";
}

/**
 * Matching lines widened by `context` lines each side; overlapping or touching windows merge.
 *
 * @example
 * ```ts
 * grepWindows(["a", "x", "b", "c", "x", "d"], grepMatcher("x"), 1)
 * // { windows: [{ from: 0, to: 5 }], matches: 2 }
 * ```
 */
export function grepWindows(lines: string[], matcher: GrepMatcher, context: number): GrepResult {
  const windows: { from: number; to: number }[] = [];
  let matches = 0;
  let steps = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    steps += matcher.cost(line);
    if (steps > GREP_STEP_BUDGET) return { windows, matches, stopped: "step budget" };
    if (!matcher.test(line)) continue;
    matches++;
    const from = Math.max(0, i - context);
    const to = Math.min(lines.length - 1, i + context);
    const last = windows[windows.length - 1];
    if (last && from <= last.to + 1) last.to = Math.max(last.to, to);
    else windows.push({ from, to });
    if (matches >= MAX_GREP_MATCHES && i < lines.length - 1) return { windows, matches, stopped: "match limit" };
  }
  return { windows, matches };
}
