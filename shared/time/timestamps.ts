/**
 * Timestamps, defined once: what we write for each contract, the strict checks each contract
 * needs when reading, and one lenient parse for ordering and ages.
 *
 * Precision is chosen per contract, and every writer of that contract uses the same function, so
 * timestamps of one kind compare as strings in time order (kernel's reference orders manifests by
 * comparing `identity.created` strings; `...:00Z` sorts after `...:00.500Z` of the same second).
 */

/**
 * ce-handoff/v1 `created_at`: UTC to the millisecond. The contract asks only for "ISO-8601 UTC";
 * milliseconds keep two handoffs written in the same second in creation order for discovery, and
 * docs/storage.md shows this shape.
 *
 * @example
 * ```ts
 * ceTimestamp(new Date(Date.UTC(2026, 6, 10, 9, 30))) // "2026-07-10T09:30:00.000Z"
 * ```
 */
export function ceTimestamp(date: Date): string {
  return date.toISOString();
}

/**
 * Every kernel timestamp we write: `identity.created` of manifests and checkpoints, a receipt's
 * `created`, the active pointer's `activated` and a ledger line's `ts`. UTC to the second, because
 * that is what kernel's reference writes for all of them (`%Y-%m-%dT%H:%M:%SZ`) and compares as
 * strings: one precision across both tools keeps that comparison in time order.
 *
 * @example
 * ```ts
 * kernelTimestamp(new Date("2026-07-10T21:45:00.789Z")) // "2026-07-10T21:45:00Z"
 * ```
 */
export function kernelTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Local published records (`created_at`, `revoked_at` in published.json): UTC to the millisecond,
 * the shape the server's API answers carry (`new Date(ms).toISOString()`), so a record's times and
 * the server's `expires_at` look alike and several publishes in one second still sort.
 *
 * @example
 * ```ts
 * recordTimestamp(new Date(Date.UTC(2026, 4, 2))) // "2026-05-02T00:00:00.000Z"
 * ```
 */
export function recordTimestamp(date: Date): string {
  return date.toISOString();
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A real calendar date, for any four-digit year (0000 included: Date.UTC would misread 0-99). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days (UTC, `YYYY-MM-DD`) that ended with a leap second, 23:59:60Z (IERS Bulletin C). */
const LEAP_SECOND_DAYS: ReadonlySet<string> = new Set([
  "1972-06-30",
  "1972-12-31",
  "1973-12-31",
  "1974-12-31",
  "1975-12-31",
  "1976-12-31",
  "1977-12-31",
  "1978-12-31",
  "1979-12-31",
  "1981-06-30",
  "1982-06-30",
  "1983-06-30",
  "1985-06-30",
  "1987-12-31",
  "1989-12-31",
  "1990-12-31",
  "1992-06-30",
  "1993-06-30",
  "1994-06-30",
  "1995-12-31",
  "1997-06-30",
  "1998-12-31",
  "2005-12-31",
  "2008-12-31",
  "2012-06-30",
  "2015-06-30",
  "2016-12-31",
]);

/** Whether local 23:59:60-ish time at `offsetMinutes` east of UTC is the last second of a leap-second day. */
function isRealLeapSecond(year: number, month: number, day: number, hour: number, minute: number, offsetMinutes: number): boolean {
  // Date.UTC maps years 0-99 to 1900-1999; build the date with setUTCFullYear instead.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, 0, 0);
  if (utc.getUTCHours() !== 23 || utc.getUTCMinutes() !== 59) return false;
  return LEAP_SECOND_DAYS.has(utc.toISOString().slice(0, 10));
}

// Upper-case T and Z only: RFC 3339 lets an application restrict them, and kernel's reference does.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * A kernel timestamp (`identity.created`, a ledger line's `ts`) as the contract has it: kernel's
 * reference check (upper-case `T`, a zone, a real calendar date and time of day) except where that
 * check breaks RFC 3339, which wins: year 0000 exists, second 60 exists at a real leap second, and
 * an offset's minutes are 00-59 (see docs/conformance.md). `undefined` when valid, else what is wrong.
 *
 * @example
 * ```ts
 * checkRfc3339("2026-07-10T21:45:00Z") // undefined
 * checkRfc3339("2026-07-10T23:45:00.5+02:00") // undefined
 * checkRfc3339("2016-12-31T23:59:60Z") // undefined (a real leap second)
 * checkRfc3339("2026-02-30T00:00:00Z") // "2026-02-30 is not a calendar date"
 * checkRfc3339("2026-07-10t21:45:00z") // "must be an RFC 3339 timestamp with a time zone, ..."
 * ```
 */
export function checkRfc3339(text: string): string | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return "must be an RFC 3339 timestamp with a time zone, like 2026-07-10T21:45:00Z or 2026-07-10T23:45:00+02:00 (upper-case T and Z)";
  const [, y, mo, d, h, mi, s, , , oh, om] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const [year, month, day, hour, minute, second] = [y!, mo!, d!, h!, mi!, s!];
  if (!isCalendarDate(year, month, day)) return `${text.slice(0, 10)} is not a calendar date`;
  if (oh! > 23 || om! > 59) return "time zone offset is out of range (hours 00-23, minutes 00-59)";
  if (hour > 23 || minute > 59 || second > 60) return `${text.slice(11, 19)} is not a time of day`;
  if (second === 60) {
    const offset = (match[8] === "-" ? -1 : 1) * (oh! * 60 + om!);
    if (!isRealLeapSecond(year, month, day, hour, minute, offset)) return `${text.slice(11, 19)}: second 60 exists only at a leap second (23:59:60 UTC on a day that had one)`;
  }
  return undefined;
}

/** ce-handoff `created_at`: date, time to the second, an optional fraction, a literal upper-case Z. */
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

/**
 * ce-handoff/v1 `created_at` ("ISO-8601 UTC"): a real instant in UTC, so no offset, no Feb 30, no
 * hour 24 and no second 60 (a discovery tool must be able to place it on the time line).
 *
 * @example
 * ```ts
 * isIsoUtc("2026-07-10T09:30:00Z") // true
 * isIsoUtc("2026-07-10T09:30:00.123Z") // true
 * isIsoUtc("2026-07-10T11:30:00+02:00") // false (not UTC)
 * isIsoUtc("2026-02-30T00:00:00Z") // false
 * ```
 */
export function isIsoUtc(text: string): boolean {
  const match = ISO_UTC.exec(text);
  if (match === null) return false;
  const [, year, month, day, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  return isCalendarDate(year, month, day) && hour < 24 && minute < 60 && second < 60;
}

/**
 * Milliseconds since the epoch for a timestamp any tool wrote, for ordering and ages only (never
 * to judge a contract: use `checkRfc3339` or `isIsoUtc` for that): Date.parse's answer, with
 * `undefined` for NaN. Date.parse itself, not a parser of ours for the common shape: discovery
 * dates 10,000 handoffs in a process that has just started, where a JavaScript parser runs in the
 * interpreter for most of them (3 µs each here, against 0.6 µs for Date.parse; issue 26).
 *
 * @example
 * ```ts
 * timestampMs("2026-07-10T21:45:00Z") // 1783719900000
 * timestampMs("2026-07-10T23:45:00.5+02:00") // 1783719900500
 * timestampMs("July 10, 2026 21:45 UTC") // 1783719900000 (Date.parse's reading)
 * timestampMs("yesterday") // undefined
 * ```
 */
export function timestampMs(text: string): number | undefined {
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}
