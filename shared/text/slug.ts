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
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  ø: "o",
  Ø: "o",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  ł: "l",
  Ł: "l",
  þ: "th",
  Þ: "th",
  ı: "i",
  ħ: "h",
  Ħ: "h",
  ŋ: "ng",
  Ŋ: "ng",
};

export interface SlugOptions {
  /** Longest slug; default SLUG_MAX_LENGTH. */
  maxLength?: number;
  /**
   * Cut a long slug at a word boundary in its second half (default), or exactly at maxLength:
   * a name that sits before a date suffix reads fine cut mid-word and keeps more of the name.
   */
  cutAtWord?: boolean;
}

/**
 * A readable slug of `title`; never empty, never `.`/`..`, never starting with `-`.
 *
 * @example
 * ```ts
 * slug("x".repeat(100), { maxLength: 80, cutAtWord: false }) // "x".repeat(80)
 * ```
 */
export function slug(title: string, options: SlugOptions = {}): string {
  const maxLength = options.maxLength ?? SLUG_MAX_LENGTH;
  const ascii = title
    .replace(/[ßẞæÆœŒøØđĐðÐłŁþÞıħĦŋŊ]/g, (ch) => TRANSLITERATE[ch] ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (ascii === "") return SLUG_FALLBACK;
  if (ascii.length <= maxLength) return ascii;
  const cut = ascii.slice(0, maxLength);
  if (options.cutAtWord === false) return cut.replace(/-+$/, "");
  // Cut at a word boundary when one is near, so the name stays readable.
  const boundary = cut.lastIndexOf("-");
  return (boundary >= maxLength / 2 ? cut.slice(0, boundary) : cut).replace(/-+$/, "");
}
