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
  const separator = ASCII.test(text) ? ASCII_SEPARATOR : SEPARATOR;
  return foldText(text)
    .split(separator)
    .filter((token) => token.length > 0);
}

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SEPARATOR = /[^a-z0-9]+/;
const SEPARATOR = /[^\p{L}\p{N}]+/u;
