/**
 * Markdown fences and code spans that the content cannot close: the fence is one backtick longer
 * than the longest backtick run inside, so quoted text never continues as if it were ours.
 *
 * @example
 * ```ts
 * fenceBlock("a ``` b", "text") // "````text\na ``` b\n````"
 * codeSpan("a`b") // "``a`b``"
 * ```
 */

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** The fence line for `text`: at least three backticks, longer than any run inside. */
export function fenceFor(text: string): string {
  return "`".repeat(Math.max(2, longestBacktickRun(text)) + 1);
}

/** A fenced block, with an optional info string after the opening fence. */
export function fenceBlock(text: string, info = ""): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}\n${fence}`;
}

/** An inline code span; newlines become spaces (a span is one line). */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  const ticks = "`".repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat === "" ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}
