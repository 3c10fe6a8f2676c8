/**
 * File-name slugs for handoffs: readable, lowercase ASCII, safe on every filesystem.
 *
 * @example
 * ```ts
 * slug("Résumé: Straße & Co!") // "resume-strasse-co"
 * slug("日本語")                // "handoff"
 * ```
 */

export const SLUG_MAX_LENGTH = 60;
export const SLUG_FALLBACK = "handoff";

// Letters NFKD does not decompose into ASCII; the rest of the non-ASCII world is dropped.
const TRANSLITERATE: Record<string, string> = {
  ß: "ss", ẞ: "ss", æ: "ae", Æ: "ae", œ: "oe", Œ: "oe", ø: "o", Ø: "o", đ: "d", Đ: "d", ð: "d", Ð: "d",
  ł: "l", Ł: "l", þ: "th", Þ: "th", ı: "i", ħ: "h", Ħ: "h", ŋ: "ng", Ŋ: "ng",
};

/** A readable slug of `title`; never empty, never `.`/`..`, never starting with `-`. */
export function slug(title: string): string {
  const ascii = title
    .replace(/[ßẞæÆœŒøØđĐðÐłŁþÞıħĦŋŊ]/g, (ch) => TRANSLITERATE[ch] ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (ascii === "") return SLUG_FALLBACK;
  if (ascii.length <= SLUG_MAX_LENGTH) return ascii;
  // Cut at a word boundary when one is near, so the name stays readable.
  const cut = ascii.slice(0, SLUG_MAX_LENGTH);
  const boundary = cut.lastIndexOf("-");
  return (boundary >= SLUG_MAX_LENGTH / 2 ? cut.slice(0, boundary) : cut).replace(/-+$/, "");
}
