// Which links in a handoff stay links. No DOM here, so it is tested without a browser.

/**
 * The href to use, or null: only what the URL parser resolves (against the page, `base`) to
 * http(s) stays a link; javascript:, data:, every other scheme, a link to a fragment of this page,
 * and what does not parse, do not.
 *
 * @example
 * ```ts
 * safeHref("docs/a.md", "https://h.example/h/id") // "https://h.example/h/docs/a.md"
 * safeHref("java\tscript:alert(1)", "https://h.example/h/id") // null
 * ```
 */
export function safeHref(href: string, base: string): string | null {
  // "#section" would point into this page, whose fragment is the key: such a link opened
  // elsewhere is only a broken link. The handoff's headings carry no ids, so it is text.
  if (href.trim().startsWith("#")) return null;
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}
