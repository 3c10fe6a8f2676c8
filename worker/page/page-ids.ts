/**
 * The element ids the share page's HTML and its reader script agree on. Both sides import this,
 * so a renamed element fails to typecheck instead of failing in a browser.
 */
export const PAGE_IDS = [
  "status",
  "error",
  "meta",
  "expires",
  "views",
  "size",
  "scope",
  "open",
  "document",
  "fileName",
  "format",
  "created",
  "copy",
  "copyStatus",
  "text",
  "resume",
] as const;

export type PageId = (typeof PAGE_IDS)[number];

/** An id for the page's HTML, checked against the list. */
export const pageId = (id: PageId): PageId => id;
