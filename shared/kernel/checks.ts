/**
 * Single-value checks behind the kernel rules and advisories. Each returns `undefined` when the value is fine
 * and otherwise a message that says what is wrong, so rules, the context compiler and drift
 * checks all judge a timestamp, a path or a revision range the same way.
 */

// Upper-case T and Z only: RFC 3339 lets an application restrict them, and kernel's reference does.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Days (UTC, `YYYY-MM-DD`) that ended with a leap second, 23:59:60Z (IERS Bulletin C). */
export const LEAP_SECOND_DAYS: ReadonlySet<string> = new Set([
  "1972-06-30", "1972-12-31", "1973-12-31", "1974-12-31", "1975-12-31", "1976-12-31", "1977-12-31",
  "1978-12-31", "1979-12-31", "1981-06-30", "1982-06-30", "1983-06-30", "1985-06-30", "1987-12-31",
  "1989-12-31", "1990-12-31", "1992-06-30", "1993-06-30", "1994-06-30", "1995-12-31", "1997-06-30",
  "1998-12-31", "2005-12-31", "2008-12-31", "2012-06-30", "2015-06-30", "2016-12-31",
]);

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether local 23:59:60-ish time at `offsetMinutes` east of UTC is the last second of a leap-second day. */
function isRealLeapSecond(year: number, month: number, day: number, hour: number, minute: number, offsetMinutes: number): boolean {
  // Date.UTC maps years 0-99 to 1900-1999; build the date with setUTCFullYear instead.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, 0, 0);
  if (utc.getUTCHours() !== 23 || utc.getUTCMinutes() !== 59) return false;
  return LEAP_SECOND_DAYS.has(utc.toISOString().slice(0, 10));
}

/**
 * identity.created as the contract has it: kernel's reference check (upper-case `T`, a zone,
 * a real calendar date and time of day) except where that check breaks RFC 3339, which wins:
 * year 0000 exists, second 60 exists at a real leap second, and an offset's minutes are 00-59
 * (see docs/conformance.md).
 *
 * @example
 * ```ts
 * checkRfc3339("2026-07-10T21:45:00Z") // undefined
 * checkRfc3339("2016-12-31T23:59:60Z") // undefined (a real leap second)
 * checkRfc3339("2026-02-30T00:00:00Z") // "2026-02-30 is not a calendar date"
 * ```
 */
export function checkRfc3339(text: string): string | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return "must be an RFC 3339 timestamp with a time zone, like 2026-07-10T21:45:00Z or 2026-07-10T23:45:00+02:00 (upper-case T and Z)";
  const [, y, mo, d, h, mi, s, , , oh, om] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const [year, month, day, hour, minute, second] = [y!, mo!, d!, h!, mi!, s!];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return `${text.slice(0, 10)} is not a calendar date`;
  }
  if (oh! > 23 || om! > 59) return "time zone offset is out of range (hours 00-23, minutes 00-59)";
  if (hour > 23 || minute > 59 || second > 60) return `${text.slice(11, 19)} is not a time of day`;
  if (second === 60) {
    const offset = (match[8] === "-" ? -1 : 1) * (oh! * 60 + om!);
    if (!isRealLeapSecond(year, month, day, hour, minute, offset)) return `${text.slice(11, 19)}: second 60 exists only at a leap second (23:59:60 UTC on a day that had one)`;
  }
  return undefined;
}

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
  const valid = parts.length === 1
    ? REVISION_TOKEN.test(parts[0]!)
    : parts.length === 3 && REVISION_TOKEN.test(parts[0]!) && REVISION_TOKEN.test(parts[2]!);
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
