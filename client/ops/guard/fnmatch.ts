/**
 * Python's fnmatch.fnmatchcase semantics, which the reference guard uses: `*` matches any run of
 * characters including `/`, `?` one character, `[...]` a class. The guard blocks when either this
 * or our segment-aware glob matches, so it is never more permissive than the reference.
 * Two-pointer matching with one backtrack point: linear in practice, never exponential.
 */
export function fnmatchcase(name: string, pattern: string): boolean {
  let n = 0;
  let p = 0;
  let starP = -1;
  let starN = 0;
  while (n < name.length) {
    const char = pattern[p];
    if (char === "*") {
      starP = ++p;
      starN = n;
      continue;
    }
    if (char !== undefined) {
      const consumed = matchOne(pattern, p, name[n]!);
      if (consumed > 0) {
        p += consumed;
        n++;
        continue;
      }
    }
    if (starP < 0) return false;
    p = starP;
    n = ++starN;
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** How many pattern characters matched `char` at `p` (0: no match). */
function matchOne(pattern: string, p: number, char: string): number {
  const token = pattern[p]!;
  if (token === "?") return 1;
  if (token !== "[") return token === char ? 1 : 0;
  let i = p + 1;
  const negated = pattern[i] === "!";
  if (negated) i++;
  let matched = false;
  let first = true;
  while (i < pattern.length && (pattern[i] !== "]" || first)) {
    first = false;
    const low = pattern[i]!;
    if (pattern[i + 1] === "-" && pattern[i + 2] !== undefined && pattern[i + 2] !== "]") {
      if (char >= low && char <= pattern[i + 2]!) matched = true;
      i += 3;
    } else {
      if (char === low) matched = true;
      i++;
    }
  }
  // An unterminated class is a literal '[', as in Python.
  if (i >= pattern.length) return char === "[" ? 1 : 0;
  return matched !== negated ? i + 1 - p : 0;
}
