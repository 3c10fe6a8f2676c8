/**
 * Single-value checks behind the kernel rules and advisories. Each returns `undefined` when the value is fine
 * and otherwise a message that says what is wrong, so rules, the context compiler and drift
 * checks all judge a path or a revision range the same way. Timestamps: shared/time/timestamps.ts.
 */

/**
 * A repository-relative path as the contract has it: not empty, no NUL, not absolute, and no
 * `..` segment that climbs above the root once the path is normalised. Names that merely start
 * with two dots (`..foo`, `...`) are ordinary names (kernel's reference rejects them, against its
 * own message; see docs/conformance.md). Whether a symlink leads outside is the client's check.
 *
 * @example
 * ```ts
 * checkRepoPath("docs/../README.md") // undefined
 * checkRepoPath("../secrets") // "climbs out of the repository with '..'"
 * ```
 */
export function checkRepoPath(path: string): string | undefined {
  if (path === "") return "is empty; give a path relative to the repository root";
  if (path.includes("\0")) return "contains a NUL character";
  if (path.startsWith("/")) return "is absolute; give a path relative to the repository root";
  let depth = 0;
  for (const segment of path.split("/")) {
    if (segment === "..") {
      depth--;
      if (depth < 0) return "climbs out of the repository with '..'";
    } else if (segment !== "." && segment !== "") {
      depth++;
    }
  }
  return undefined;
}

/**
 * What makes a valid repository path a poor one: it means something else on Windows (a drive
 * letter, a backslash) or holds control characters. An advisory, never a contract error.
 *
 * @example
 * ```ts
 * checkPortablePath("C:\\notes.md") // "starts with a drive letter; ..."
 * ```
 */
export function checkPortablePath(path: string): string | undefined {
  if (/[\u0001-\u001f\u007f]/.test(path)) return "contains a control character";
  if (/^[A-Za-z]:/.test(path)) return "starts with a drive letter; on Windows this is not a repository-relative path";
  if (path.includes("\\")) return "contains a backslash; use '/' so the path means the same on every system";
  return undefined;
}

/**
 * A line range `A-B`, inclusive, with 1 <= A <= B.
 *
 * @example
 * ```ts
 * parseLineRange("1-30") // { start: 1, end: 30 }
 * parseLineRange("30-1") // undefined
 * ```
 */
export function parseLineRange(text: string): { start: number; end: number } | undefined {
  const match = /^([1-9][0-9]{0,8})-([1-9][0-9]{0,8})$/.exec(text);
  if (match === null) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return start <= end ? { start, end } : undefined;
}

// A revision token as kernel's reference accepts it: starts with a letter or digit, then letters,
// digits and . _ / @ { } ^ ~ + -. Nothing git could read as an option or a reflog shorthand (@{u}).
const REVISION_TOKEN = /^[A-Za-z0-9][A-Za-z0-9._/@{}^~+-]*$/;

/**
 * A `git_diff` selector value: `rev`, `a..b` or `a...b`, each side a safe revision token, so it
 * reaches git as one argument that is never an option.
 *
 * @example
 * ```ts
 * checkGitDiff("main...HEAD~2") // undefined
 * checkGitDiff("--output=/tmp/x") // "must be a revision or a range like main..HEAD ..."
 * ```
 */
export function checkGitDiff(text: string): string | undefined {
  const parts = text.split(/(\.\.\.?)/);
  const valid = parts.length === 1 ? REVISION_TOKEN.test(parts[0]!) : parts.length === 3 && REVISION_TOKEN.test(parts[0]!) && REVISION_TOKEN.test(parts[2]!);
  return valid ? undefined : "must be a revision or a range like main..HEAD or main...HEAD~2, each side starting with a letter or digit and made of letters, digits and . _ / @ { } ^ ~ + -";
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
const SHA256_LOWER_HEX = /^[0-9a-f]{64}$/;
const COMMIT_HEX = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/** `undefined` for a SHA-256 as 64 hex digits; `lowercase` also demands lower case. */
export function checkSha256(text: string, options: { lowercase?: boolean } = {}): string | undefined {
  if (options.lowercase) return SHA256_LOWER_HEX.test(text) ? undefined : "must be a SHA-256 as 64 lowercase hex digits";
  return SHA256_HEX.test(text) ? undefined : "must be a SHA-256 as 64 hex digits";
}

/** `undefined` for a full git object id: 40 (SHA-1) or 64 (SHA-256) hex digits. */
export function checkCommitSha(text: string): string | undefined {
  return COMMIT_HEX.test(text) ? undefined : "must be a full commit sha (40 or 64 hex digits), as printed by git rev-parse HEAD";
}
