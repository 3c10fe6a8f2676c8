/**
 * Glob matching for `path_glob` and `context.forbidden`, without building a regex from user
 * input: the pattern compiles to a small automaton that is run over the path once, keeping a
 * set of live states, so time is O(pattern × path) for any pattern (no backtracking blow-up).
 *
 * Syntax: `*` any run of characters within one segment, `?` one character other than `/`,
 * `[abc]`, `[a-z]`, `[!a]` / `[^a]` one character of a class (never `/`), `\x` the character x,
 * and `**` as a whole segment: any number of segments (`a/**` is everything inside `a`,
 * `**\/b` is `b` in any folder, `a/**\/b` includes `a/b`). A leading `./` or `/` is ignored.
 */

type Token =
  | { kind: "char"; char: string }
  | { kind: "class"; negated: boolean; ranges: [string, string][] }
  /** one character except `/` */
  | { kind: "one" }
  /** zero or more characters except `/` */
  | { kind: "star" }
  /** zero or more characters of any kind */
  | { kind: "any" }
  /** an epsilon fork: continue here or jump to `to` */
  | { kind: "skip"; to: number };

function parseClass(pattern: string, start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negated = true;
    i++;
  }
  const ranges: [string, string][] = [];
  let first = true;
  while (i < pattern.length && (pattern[i] !== "]" || first)) {
    first = false;
    let low = pattern[i]!;
    if (low === "\\" && i + 1 < pattern.length) low = pattern[++i]!;
    if (pattern[i + 1] === "-" && pattern[i + 2] !== undefined && pattern[i + 2] !== "]") {
      let high = pattern[i + 2]!;
      i += 2;
      if (high === "\\" && i + 1 < pattern.length) high = pattern[++i]!;
      ranges.push([low, high]);
    } else {
      ranges.push([low, low]);
    }
    i++;
  }
  // An unterminated class is a literal '[' as in shells.
  if (i >= pattern.length) return undefined;
  return { token: { kind: "class", negated, ranges }, end: i + 1 };
}

function compileSegment(segment: string, tokens: Token[]): void {
  for (let i = 0; i < segment.length; ) {
    const char = segment[i]!;
    if (char === "*") {
      while (segment[i] === "*") i++;
      tokens.push({ kind: "star" });
    } else if (char === "?") {
      tokens.push({ kind: "one" });
      i++;
    } else if (char === "[") {
      const parsed = parseClass(segment, i);
      if (parsed === undefined) {
        tokens.push({ kind: "char", char });
        i++;
      } else {
        tokens.push(parsed.token);
        i = parsed.end;
      }
    } else if (char === "\\" && i + 1 < segment.length) {
      tokens.push({ kind: "char", char: segment[i + 1]! });
      i += 2;
    } else {
      tokens.push({ kind: "char", char });
      i++;
    }
  }
}

function stripLeading(text: string): string {
  if (text.startsWith("./")) return text.slice(2);
  if (text.startsWith("/")) return text.slice(1);
  return text;
}

function compile(pattern: string): Token[] {
  const segments = stripLeading(pattern).split("/");
  const tokens: Token[] = [];
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === "**") {
      if (last) {
        // `**` alone matches everything; `a/**` everything below a (the '/' is already in place).
        tokens.push({ kind: "any" });
      } else {
        // `**/` is "(any/)?": skip it, or any characters ending in a '/'.
        tokens.push({ kind: "skip", to: tokens.length + 3 }, { kind: "any" }, { kind: "char", char: "/" });
      }
      return;
    }
    compileSegment(segment, tokens);
    if (!last) tokens.push({ kind: "char", char: "/" });
  });
  return tokens;
}

function classMatches(token: Extract<Token, { kind: "class" }>, char: string): boolean {
  if (char === "/") return false;
  const inClass = token.ranges.some(([low, high]) => char >= low && char <= high);
  return inClass !== token.negated;
}

/** Adds state `start` and every state reachable from it without consuming a character. */
function addState(tokens: readonly Token[], states: Set<number>, start: number): void {
  const pending = [start];
  while (pending.length > 0) {
    const state = pending.pop()!;
    if (states.has(state)) continue;
    states.add(state);
    const token = tokens[state];
    if (token === undefined) continue;
    if (token.kind === "skip") pending.push(state + 1, token.to);
    else if (token.kind === "star" || token.kind === "any") pending.push(state + 1);
  }
}

function step(tokens: readonly Token[], states: ReadonlySet<number>, char: string): Set<number> {
  const next = new Set<number>();
  for (const state of states) {
    const token = tokens[state];
    if (token === undefined) continue;
    switch (token.kind) {
      case "char":
        if (token.char === char) addState(tokens, next, state + 1);
        break;
      case "one":
        if (char !== "/") addState(tokens, next, state + 1);
        break;
      case "class":
        if (classMatches(token, char)) addState(tokens, next, state + 1);
        break;
      case "star":
        if (char !== "/") addState(tokens, next, state);
        break;
      case "any":
        addState(tokens, next, state);
        break;
      case "skip":
        break;
    }
  }
  return next;
}

export interface GlobOptions {
  /**
   * Also match when the pattern matches a folder that contains the path, so `frontend/*`
   * covers `frontend/src/app.ts`: what a guard wants from a list of forbidden globs.
   */
  matchParents?: boolean;
}

/**
 * Whether `path` (relative, `/`-separated) matches the glob `pattern`.
 *
 * @example
 * ```ts
 * matchGlob("src/**\/*.ts", "src/a/b.ts") // true
 * matchGlob("frontend/*", "frontend/src/app.ts") // false
 * matchGlob("frontend/*", "frontend/src/app.ts", { matchParents: true }) // true
 * ```
 */
export function matchGlob(pattern: string, path: string, options: GlobOptions = {}): boolean {
  const tokens = compile(pattern);
  const accept = tokens.length;
  const subject = stripLeading(path);
  let states = new Set<number>();
  addState(tokens, states, 0);
  for (const char of subject) {
    if (char === "/" && options.matchParents && states.has(accept)) return true;
    states = step(tokens, states, char);
    if (states.size === 0) return false;
  }
  return states.has(accept);
}
