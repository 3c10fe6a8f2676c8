import { scanFrontmatter } from "./frontmatter-scan.js";
import { fencedLines, splitLines } from "../text/markdown.js";

/**
 * Defaults for --title and --summary, taken from the body the agent wrote: a leading heading, and
 * the first sentence of the first paragraph. The caller says so to the user, so nothing is silently
 * invented.
 *
 * @example
 * ```ts
 * deriveTitle("# Auth refactor\n\nToken refresh is half done. Tests fail.") // "Auth refactor"
 * deriveSummary("# Auth refactor\n\nToken refresh is half done. Tests fail.") // "Token refresh is half done."
 * ```
 */

export const TITLE_MAX_LENGTH = 80;
export const SUMMARY_MAX_LENGTH = 200;

/**
 * A body that starts with its own frontmatter block: the block's bytes and the text after it.
 * A handoff gets exactly one frontmatter block, so create takes the author's block apart
 * instead of nesting it under a second one.
 */
export function splitLeadingFrontmatter(body: string): { data: Record<string, unknown> | undefined; rest: string } | undefined {
  const scan = scanFrontmatter(body);
  if (scan.kind === "unindexed") return undefined;
  const bytes = new TextEncoder().encode(body);
  const rest = new TextDecoder().decode(bytes.subarray(scan.bytesRead)).replace(/^\s*\n/, "");
  return { data: scan.kind === "indexed" ? scan.data : undefined, rest };
}

/** A leading heading's text, else the first sentence; undefined for a body with no text. */
export function deriveTitle(body: string): string | undefined {
  const lines = proseLines(body);
  const first = lines.find((line) => line.trim() !== "") ?? "";
  const text = HEADING.test(first) ? cleanInline(first.replace(HEADING, "$1")) : firstSentence(paragraphs(lines)[0] ?? "");
  return text === "" ? undefined : truncate(text, TITLE_MAX_LENGTH);
}

/** The first sentence of the first paragraph that is not a heading; undefined when there is none. */
export function deriveSummary(body: string): string | undefined {
  const text = firstSentence(paragraphs(proseLines(body))[0] ?? "");
  return text === "" ? undefined : truncate(text, SUMMARY_MAX_LENGTH);
}

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
/**
 * Lines outside fenced code blocks and HTML comments, so code never becomes a title. Fences are
 * read by the one fence reader (shared/text/markdown.ts): a ``` line does not close a ~~~ fence.
 */
function proseLines(body: string): string[] {
  const lines = splitLines(body.replace(/<!--[\s\S]*?-->/g, ""));
  const fenced = fencedLines(lines);
  return lines.map((line, i) => (fenced.has(i) ? "" : line));
}

function paragraphs(lines: string[]): string[] {
  const result: string[] = [];
  let current: string[] = [];
  for (const line of [...lines, ""]) {
    if (line.trim() === "" || HEADING.test(line)) {
      if (current.length) result.push(current.join(" "));
      current = [];
      continue;
    }
    current.push(cleanInline(line.replace(/^\s*(?:[-*+]|\d+[.)]|>)\s+/, "")));
  }
  return result.filter((p) => p !== "");
}

/**
 * Markdown markup off, words kept: code spans keep their content verbatim, and only asterisk
 * emphasis is unwrapped. Underscores stay (`parse_config`, `__init__.py` are names, not emphasis).
 */
function cleanInline(text: string): string {
  return text
    .replace(/(`+)([^`]|[^`].*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => code.trim())
    .replace(/(\*{1,3})(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/\s+/g, " ")
    .trim();
}

function firstSentence(text: string): string {
  const match = /^.*?[.!?](?=\s|$)/.exec(text);
  return (match ? match[0] : text).trim();
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
