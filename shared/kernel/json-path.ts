/**
 * JSON paths as people read them (`context.required[0].lines`), shared by the strict parser and
 * the validators so a duplicate key and a schema issue name a place the same way.
 */

export type JsonPathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats path segments; the root is `$`, a key that is not an identifier is quoted in brackets.
 *
 * @example
 * ```ts
 * formatJsonPath(["context", "required", 0, "lines"]) // "context.required[0].lines"
 * formatJsonPath(["a b"]) // '["a b"]'
 * formatJsonPath([]) // "$"
 * ```
 */
export function formatJsonPath(segments: readonly JsonPathSegment[]): string {
  if (segments.length === 0) return "$";
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Orders paths segment by segment, indexes numerically, so `[2]` sorts before `[10]` and a
 * parent before its children.
 *
 * @example
 * ```ts
 * [["a", 10], ["a", 2]].sort(compareJsonPaths) // [["a", 2], ["a", 10]]
 * ```
 */
export function compareJsonPaths(a: readonly JsonPathSegment[], b: readonly JsonPathSegment[]): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    // Indexes before keys keeps the order total when a value's type is itself in question.
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
