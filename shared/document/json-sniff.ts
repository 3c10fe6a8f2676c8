/**
 * Whether a document is meant as JSON (a kernel document), by its text or its name; sniff.ts
 * re-exports these with the rest of document sniffing.
 *
 * @example
 * ```ts
 * startsLikeJson('\ufeff  {"schema": 1}') // true
 * namedLikeJson("manifest.JSON") // true
 * ```
 */

/** True when the text (after a BOM and whitespace) opens a JSON object: read it as JSON. */
export function startsLikeJson(text: string): boolean {
  return /^\ufeff?\s*\{/.test(text);
}

/** A file name that says JSON. */
export function namedLikeJson(name: string): boolean {
  return /\.json$/i.test(name);
}
