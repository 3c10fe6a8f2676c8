import { HandoffError } from "../errors.js";
import { type CeFields, FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES } from "./contract.js";
import { scanFrontmatter } from "./frontmatter-scan.js";
import { serializeCeFrontmatter } from "./serialize.js";

/**
 * Keeps what `create` writes indexable: discovery reads at most the first 64 lines or 16 KiB of
 * a file for its frontmatter, so frontmatter past those bounds would make the handoff invisible
 * to the very tool that wrote it. The summary is cut first (not below a useful length), then
 * keywords are dropped from the end, then the summary is cut further; if the fixed fields alone
 * (title, cwd, ...) are too large, nothing is written.
 */

/** A summary is not cut below this many characters while keywords can still go instead. */
const SUMMARY_FLOOR = 200;
const ELLIPSIS = "…";

/** Whether discovery's bounded read indexes this frontmatter. */
export function frontmatterFits(fields: CeFields): boolean {
  return scanFrontmatter(new TextEncoder().encode(`${serializeCeFrontmatter(fields)}\n`)).kind !== "unindexed";
}

function cut(text: string, points: number): string {
  const chars = [...text];
  return chars.length <= points ? text : `${chars.slice(0, points).join("")}${ELLIPSIS}`;
}

/** The longest cut of the summary, at least `floor` characters, that fits; undefined if none does. */
function fitSummary(fields: CeFields, floor: number): CeFields | undefined {
  const length = [...fields.summary].length;
  let [low, high] = [floor, length];
  if (!frontmatterFits({ ...fields, summary: cut(fields.summary, low) })) return undefined;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (frontmatterFits({ ...fields, summary: cut(fields.summary, mid) })) low = mid;
    else high = mid - 1;
  }
  return { ...fields, summary: cut(fields.summary, low) };
}

/**
 * The fields to write, shortened when needed, and what was shortened (for a warning).
 *
 * @example
 * ```ts
 * fitFrontmatter({ ...fields, summary: "x".repeat(40_000) }).shortened // ["summary"]
 * ```
 */
export function fitFrontmatter(fields: CeFields): { fields: CeFields; shortened: string[] } {
  if (frontmatterFits(fields)) return { fields, shortened: [] };
  const summaryOnly = fitSummary(fields, Math.min(SUMMARY_FLOOR, [...fields.summary].length));
  if (summaryOnly) return { fields: summaryOnly, shortened: ["summary"] };
  const trimmed = { ...fields, summary: cut(fields.summary, Math.min(SUMMARY_FLOOR, [...fields.summary].length)) };
  // The most leading keywords that fit, by bisection (fewer keywords never make it larger):
  // O(log n) serialisations of O(n) each, where dropping one at a time was quadratic.
  const withKeywords = (count: number): CeFields => ({ ...trimmed, keywords: fields.keywords.slice(0, count) });
  let [low, high] = [0, fields.keywords.length - 1];
  if (high >= 0 && frontmatterFits(withKeywords(0))) {
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (frontmatterFits(withKeywords(mid))) low = mid;
      else high = mid - 1;
    }
    const shortened = trimmed.summary === fields.summary ? ["keywords"] : ["summary", "keywords"];
    return { fields: withKeywords(low), shortened };
  }
  const last = fitSummary(withKeywords(0), 0);
  if (last) return { fields: last, shortened: fields.keywords.length > 0 ? ["summary", "keywords"] : ["summary"] };
  throw new HandoffError(
    "invalid_document",
    `the frontmatter would not fit in the first ${FRONTMATTER_MAX_LINES} lines / ${FRONTMATTER_MAX_BYTES / 1024} KiB discovery reads, even with the summary and keywords cut: the title, focus or paths are too long`,
    {
      hint: "pass a shorter --title (and --focus), and run it from a shorter path",
    },
  );
}
