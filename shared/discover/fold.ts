/**
 * Text folding for matching people's words against metadata: case-insensitive and
 * diacritic-insensitive, so "Résumé" and "resume" meet.
 *
 * @example
 * ```ts
 * foldText("Résumé AUTH") // "resume auth"
 * wordTokens("fix-auth_flow v2.md") // ["fix", "auth", "flow", "v2", "md"]
 * ```
 */
export function foldText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** Folded words: runs of letters and digits; everything else separates. */
export function wordTokens(text: string): string[] {
  return foldText(text).split(/[^\p{L}\p{N}]+/u).filter((token) => token.length > 0);
}
