/**
 * Single-value checks behind the kernel rules. Each returns `undefined` when the value is fine
 * and otherwise a message that says what is wrong, so rules, the context compiler and drift
 * checks all judge a timestamp, a path or a revision range the same way.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Strict RFC 3339 date-time: full date, `T`, full time, and a zone (`Z` or `±hh:mm`); the date
 * and time must exist (no month 13, no February 30). Second 60 is allowed for leap seconds.
 *
 * @example
 * ```ts
 * checkRfc3339("2026-07-10T21:45:00Z") // undefined
 * checkRfc3339("2026-02-30T00:00:00Z") // "2026-02-30 is not a calendar date"
 * ```
 */
export function checkRfc3339(text: string): string | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return "must be an RFC 3339 timestamp with a time zone, like 2026-07-10T21:45:00Z or 2026-07-10T23:45:00+02:00";
  const [, y, mo, d, h, mi, s, , , oh, om] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const [year, month, day] = [y!, mo!, d!];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return `${text.slice(0, 10)} is not a calendar date`;
  }
  if (h! > 23 || mi! > 59 || s! > 60) return `${text.slice(11, 19)} is not a time of day`;
  if (oh! > 23 || om! > 59) return "time zone offset is out of range";
  return undefined;
}

/**
 * A repository-relative path that cannot leave the repository: not empty, no NUL or other
 * control characters, not absolute (`/x`, `\x`, `C:x`), and no `..` that climbs above the root
 * once `.` and `..` are resolved. Backslashes count as separators so a path means the same on
 * every system.
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
  if (/[\u0001-\u001f\u007f]/.test(path)) return "contains a control character";
  if (path.startsWith("/") || path.startsWith("\\")) return "is absolute; give a path relative to the repository root";
  if (/^[A-Za-z]:/.test(path)) return "starts with a drive letter; give a path relative to the repository root";
  let depth = 0;
  for (const segment of path.split(/[\\/]/)) {
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

const REVISION_TOKEN = /^[A-Za-z0-9._/@^~{}-]+$/;
const MAX_REVISION_LENGTH = 256;

function checkRevisionToken(token: string, side: string): string | undefined {
  if (token === "") return side === "the" ? "is empty; give a revision or a range like main..HEAD" : `has an empty ${side} revision`;
  // A leading '-' would reach git as an option; a leading '.' is never a valid revision.
  if (token.startsWith("-")) return `${side} revision '${token}' starts with '-'`;
  if (!REVISION_TOKEN.test(token)) return `${side} revision '${token}' may only contain letters, digits and . _ / @ ^ ~ { } -`;
  if (token.startsWith(".")) return `${side} revision '${token}' starts with '.'`;
  if (token.includes("..")) return `${side} revision '${token}' contains '..'`;
  return undefined;
}

/**
 * A `git_diff` selector value: `rev`, `a..b` or `a...b`, each revision made of safe characters
 * and never starting with `-`, so it can be passed to git as a single argument.
 *
 * @example
 * ```ts
 * checkGitDiff("main...HEAD~2") // undefined
 * checkGitDiff("--output=/tmp/x") // "revision '--output=/tmp/x' ..."
 * ```
 */
export function checkGitDiff(text: string): string | undefined {
  if (text.length > MAX_REVISION_LENGTH) return `is longer than ${MAX_REVISION_LENGTH} characters`;
  const operator = text.includes("...") ? "..." : text.includes("..") ? ".." : undefined;
  if (operator === undefined) return checkRevisionToken(text, "the");
  const at = text.indexOf(operator);
  return checkRevisionToken(text.slice(0, at), "left") ?? checkRevisionToken(text.slice(at + operator.length), "right");
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
