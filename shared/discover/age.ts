const UNITS = [
  { ms: 365 * 86_400_000, name: "year" },
  { ms: 30 * 86_400_000, name: "month" },
  { ms: 7 * 86_400_000, name: "week" },
  { ms: 86_400_000, name: "day" },
  { ms: 3_600_000, name: "hour" },
  { ms: 60_000, name: "minute" },
] as const;

/**
 * A duration in the words people use for "how long ago", rounded down to the largest unit.
 *
 * @example
 * ```ts
 * describeAge(2 * 3_600_000 + 5) // "2 hours ago"
 * describeAge(30_000) // "just now"
 * ```
 */
export function describeAge(ageMs: number): string {
  for (const unit of UNITS) {
    if (ageMs >= unit.ms) {
      const count = Math.floor(ageMs / unit.ms);
      return `${count} ${unit.name}${count === 1 ? "" : "s"} ago`;
    }
  }
  return "just now";
}
