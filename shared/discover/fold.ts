/**
 * Text folding for matching people's words against metadata: case-insensitive and
 * diacritic-insensitive, so "Résumé" and "resume" meet.
 *
 * @example
 * ```ts
 * foldText("Résumé AUTH") // "resume auth"
 * ```
 */
export function foldText(text: string): string {
  // Discovery folds every title of thousands of candidates; most are ASCII and need no NFKD.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/**
 * Folded words: runs of letters and digits; everything else separates.
 *
 * @example
 * ```ts
 * wordTokens("Fix-Auth_flow v2.md") // ["fix", "auth", "flow", "v2", "md"]
 * ```
 */
export function wordTokens(text: string): string[] {
  if (text === "") return [];
  const ascii = ASCII.test(text);
  return wordsOf(ascii ? text.toLowerCase() : foldText(text), ascii);
}

/**
 * wordTokens(text), or none when no word of `wanted` occurs in the folded text: each token is a
 * piece of that text, so then none of them can be one of those words or start with one. Ranking
 * asks this of every field of every candidate a keyword search reaches, and most fields hold none
 * of the words searched for: one search instead of a split and its array of words (issue 26).
 *
 * @example
 * ```ts
 * wordTokensContaining("Fix-Auth flow", ["auth"]) // ["fix", "auth", "flow"]
 * wordTokensContaining("Fix-Auth flow", ["login"]) // []
 * ```
 */
export function wordTokensContaining(text: string, wanted: readonly string[]): string[] {
  if (text === "") return [];
  const ascii = ASCII.test(text);
  const folded = ascii ? text.toLowerCase() : foldText(text);
  let found = false;
  for (let i = 0; i < wanted.length && !found; i++) found = folded.includes(wanted[i]!);
  return found ? wordsOf(folded, ascii) : [];
}

/** The words of folded text; `ascii`: the text it was folded from is ASCII (its separator is then the ASCII one). */
function wordsOf(folded: string, ascii: boolean): string[] {
  return folded.split(ascii ? ASCII_SEPARATOR : unicodeSeparator()).filter((token) => token.length > 0);
}

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SEPARATOR = /[^a-z0-9]+/;
let separator: RegExp | undefined;
/**
 * Made on first use, not at load: creating a regular expression with Unicode property classes
 * costs about 0.5 ms (measured, issue 26), which every command that loads this module and only
 * ever folds ASCII (create, for one) paid at start-up.
 */
const unicodeSeparator = () => (separator ??= /[^\p{L}\p{N}]+/u);
