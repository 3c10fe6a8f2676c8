// Puts an opened handoff on the page: the header card, the rendered body, the source and the
// actions. Every value from the handoff reaches the DOM as textContent or through markdown-dom.ts.
import type { HandoffMeta } from "../../../shared/api/handoff.js";
import type { EnvelopeMeta } from "../../../shared/crypto/envelope.js";
import type { PageId } from "../page-ids.js";
import { copyToClipboard, saveBytes } from "./actions.js";
import { type HeaderCard, handoffView } from "./handoff-view.js";
import { markdownToNodes } from "./markdown-dom.js";
import { timeNode } from "./time-dom.js";
import { viewsWords } from "./words.js";

export type Page = Record<PageId, HTMLElement>;

/** How many characters of a commit id the card shows (the full id is in the tooltip). */
const SHORT_SHA = 12;

function row(card: HTMLElement, label: string, value: Node | undefined): void {
  if (value === undefined) return;
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.append(value);
  card.append(dt, dd);
}

function textIn(tag: "span" | "code", text: string | undefined, title?: string): Node | undefined {
  if (text === undefined) return undefined;
  const node = document.createElement(tag);
  node.textContent = text;
  if (title !== undefined) node.title = title;
  return node;
}

function keywords(values: string[]): Node | undefined {
  if (values.length === 0) return undefined;
  const list = document.createElement("ul");
  list.className = "keywords";
  for (const value of values) {
    const item = document.createElement("li");
    item.textContent = value;
    list.append(item);
  }
  return list;
}

function fillCard(page: Page, card: HeaderCard, meta: EnvelopeMeta): void {
  const head = card.head;
  row(page.card, "Repository", textIn("span", card.repository));
  row(page.card, "Branch", textIn("code", card.branch));
  row(page.card, "HEAD", textIn("code", head?.slice(0, SHORT_SHA), head));
  row(page.card, "Created", timeNode(card.created ?? meta.created_at));
  row(page.card, "Resume focus", textIn("span", card.focus));
  row(page.card, "Keywords", keywords(card.keywords));
  row(page.card, "File", textIn("code", meta.file_name));
}

/** Shows the opened handoff; `resume` is the command with this page's full link. */
export function showDocument(page: Page, plaintext: Uint8Array<ArrayBuffer>, meta: EnvelopeMeta, resume: string, changes?: Uint8Array<ArrayBuffer>): void {
  // ignoreBOM keeps a leading BOM in the text, so View source and Copy text stay exact.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(plaintext);
  const view = handoffView(text, meta.file_name);
  const title = view.card.title ?? meta.file_name;
  page.heading.textContent = title;
  document.title = `${title} · Handoff`;
  page.kind.textContent = view.kind === "kernel" ? `Kernel handoff manifest · ${meta.format}` : `Handoff · ${meta.format}`;
  if (view.card.summary !== undefined) {
    page.summary.textContent = view.card.summary;
    page.summary.hidden = false;
  }
  fillCard(page, view.card, meta);
  if (view.notice !== undefined) {
    page.noticeTitle.textContent = view.notice.title;
    page.noticeText.textContent = view.notice.text;
    page.notice.hidden = false;
    page.download.textContent = "Download JSON";
  }
  if (view.frontmatterAsWritten !== undefined) {
    page.frontmatterText.textContent = view.frontmatterAsWritten;
    page.frontmatter.hidden = false;
  }
  page.rendered.replaceChildren(markdownToNodes(view.markdown, location.href));
  page.source.textContent = text;

  const status = (words: string) => (page.actionStatus.textContent = words);
  page.copyResume.addEventListener("click", () => void copyToClipboard(resume, () => page.resume, "the resume command").then(status));
  const source = () => {
    showSource(page, true);
    return page.source;
  };
  page.copy.addEventListener("click", () => void copyToClipboard(text, source, "the text").then(status));
  page.download.addEventListener("click", () => {
    saveBytes(plaintext, meta.file_name);
    status(`Saved as ${meta.file_name} (check your downloads).`);
  });
  if (changes !== undefined) {
    // The bundle as the CLI keeps it beside a handoff: apply it with `handoff resume <file> --apply-changes`.
    const name = `${meta.file_name.replace(/\.[^.]*$/, "") || "handoff"}.changes`;
    page.downloadChanges.hidden = false;
    page.downloadChanges.addEventListener("click", () => {
      saveBytes(changes, name);
      status(`Saved the sender's uncommitted work as ${name} (${changes.length} bytes); put it beside the handoff file and apply it with: handoff resume <file> --apply-changes`);
    });
  }
  page.viewSource.addEventListener("click", () => showSource(page, page.source.hidden));
  page.document.hidden = false;
}

/** Source and rendering take turns: one button, its state in aria-expanded. */
function showSource(page: Page, source: boolean): void {
  page.source.hidden = !source;
  page.rendered.hidden = source;
  page.viewSource.setAttribute("aria-expanded", String(source));
  page.viewSource.textContent = source ? "View rendered" : "View source";
}

/**
 * The link's own limits, after the handoff's facts in the card: once the document is open the
 * "About this link" section is gone, and a reader still wants to know how long the link lives.
 */
export function showLinkFacts(page: Page, link: Pick<HandoffMeta, "expires_at" | "views_left" | "max_views">): void {
  row(page.card, "Link expires", timeNode(link.expires_at));
  row(page.card, "Views left", textIn("span", viewsWords(link)));
}
