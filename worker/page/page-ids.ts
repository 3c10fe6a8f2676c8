/**
 * The element ids the share page's HTML and its reader script agree on. Both sides import this,
 * so a renamed element fails to typecheck instead of failing in a browser.
 */
export const PAGE_IDS = [
  "heading",
  "intro",
  "status",
  "problem",
  "problemWhat",
  "problemTodo",
  "meta",
  "expires",
  "views",
  "size",
  "scope",
  "open",
  "passphraseForm",
  "passphrase",
  "passphraseStatus",
  "document",
  "kind",
  "summary",
  "card",
  "copyResume",
  "download",
  "downloadChanges",
  "copy",
  "viewSource",
  "forget",
  "actionStatus",
  "notice",
  "noticeTitle",
  "noticeText",
  "frontmatter",
  "frontmatterText",
  "rendered",
  "source",
  "cli",
  "cliHow",
  "resume",
] as const;

export type PageId = (typeof PAGE_IDS)[number];

/** An id for the page's HTML, checked against the list. */
export const pageId = (id: PageId): PageId => id;
