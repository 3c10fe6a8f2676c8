/**
 * Markdown heading scan shared by orientation (finding sections by meaning) and the context
 * compiler's heading selector (finding a section by its exact heading). Headings inside fenced
 * code blocks are not headings: a handoff that quotes a Markdown file in a fence must not have
 * its quoted headings taken for its own.
 */

export interface MarkdownHeading {
  /** Index of the heading's text line. */
  line: number;
  /** Index of its last line: the underline of a setext heading, else `line`. */
  endLine: number;
  /** 1 to 6. */
  level: number;
  /** Heading text, trimmed, without the `#` marks or closing `#` sequence. */
  text: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const LIST_OR_QUOTE = /^ {0,3}(?:[-*+>]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Splits text into lines, accepting LF and CRLF.
 *
 * @example
 * ```ts
 * splitLines("a\r\nb\n") // ["a", "b"]
 * ```
 */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Indices of lines that belong to fenced code blocks, fence lines included.
 *
 * @example
 * ```ts
 * fencedLines(["a", "```", "# not a heading", "```"]) // Set {1, 2, 3}
 * ```
 */
export function fencedLines(lines: string[]): Set<number> {
  const fenced = new Set<number>();
  let open: { char: string; length: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (open) {
      fenced.add(i);
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close?.[1] && close[1][0] === open.char && close[1].length >= open.length) open = undefined;
      continue;
    }
    const start = FENCE_OPEN.exec(line);
    const marker = start?.[1];
    // A backtick fence's info string may not contain a backtick (CommonMark), else it is inline code.
    if (marker && !(marker[0] === "`" && (start[2] ?? "").includes("`"))) {
      open = { char: marker[0] ?? "`", length: marker.length };
      fenced.add(i);
    }
  }
  return fenced;
}

/**
 * ATX (`## X`) and setext (`X` over `===` or `---`) headings outside fenced code.
 *
 * @example
 * ```ts
 * markdownHeadings(splitLines("# A\ntext\nB\n---\n```\n# no\n```"))
 * // [{ line: 0, endLine: 0, level: 1, text: "A" }, { line: 2, endLine: 3, level: 2, text: "B" }]
 * ```
 */
export function markdownHeadings(lines: string[], fenced: Set<number> = fencedLines(lines)): MarkdownHeading[] {
  const headings: MarkdownHeading[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (fenced.has(i)) continue;
    const line = lines[i] ?? "";
    const atx = ATX.exec(line);
    if (atx?.[1]) {
      headings.push({ line: i, endLine: i, level: atx[1].length, text: stripClosingHashes(atx[2] ?? "") });
      continue;
    }
    const next = lines[i + 1];
    if (next === undefined || fenced.has(i + 1) || line.trim() === "") continue;
    const underline = SETEXT_UNDERLINE.exec(next);
    const afterHeading = headings[headings.length - 1]?.endLine === i - 1;
    if (underline?.[1] && !LIST_OR_QUOTE.test(line) && (afterHeading || !continuesParagraph(lines, i, fenced))) {
      headings.push({ line: i, endLine: i + 1, level: underline[1][0] === "=" ? 1 : 2, text: line.trim() });
      i++;
    }
  }
  return headings;
}

function stripClosingHashes(text: string): string {
  if (/^#+$/.test(text)) return "";
  return text.replace(/[ \t]+#+$/, "").trim();
}

// Only single-line setext headings: a `---` under a multi-line paragraph is far more often a
// thematic break in hand-written handoffs than a heading, and guessing wrong would split sections.
function continuesParagraph(lines: string[], i: number, fenced: Set<number>): boolean {
  if (i === 0) return false;
  const previous = lines[i - 1] ?? "";
  return previous.trim() !== "" && !fenced.has(i - 1) && !ATX.test(previous);
}
