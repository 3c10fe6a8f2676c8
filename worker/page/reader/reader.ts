// The share page's script (bundled by scripts/build-reader.js into reader-bundle.generated.ts).
// It decrypts with the same envelope code as the CLI. The key is read from location.hash and goes
// nowhere: not into a request, not into a log. The handoff is untrusted text, so it is only ever
// set as textContent, never parsed as HTML.
import { errorBodySchema } from "../../../shared/api/error.js";
import { type HandoffMeta, handoffMetaSchema } from "../../../shared/api/handoff.js";
import { resumeCommand } from "../../../shared/ce/resume-command.js";
import { openHandoff } from "../../../shared/crypto/envelope.js";
import { parseShareKey } from "../../../shared/crypto/key.js";
import { READ_TOKEN_HEADER, deriveReadToken } from "../../../shared/crypto/read-token.js";
import { type Result, err, isHandoffError, ok } from "../../../shared/errors.js";
import { config } from "zod/mini";
import { PAGE_IDS, type PageId } from "../page-ids.js";
import { MISSING_KEY, metaWords, problemWords, when } from "./words.js";

// zod would probe for eval to speed up object parsing; this page's CSP forbids eval, and the probe
// would log a violation.
config({ jitless: true });

type Page = Record<PageId, HTMLElement>;

function findPage(): Page {
  const page = {} as Page;
  for (const id of PAGE_IDS) {
    const element = document.getElementById(id);
    if (element === null) throw new Error(`the share page has no #${id}`);
    page[id] = element;
  }
  return page;
}

function say(page: Page, status: string): void {
  page.status.textContent = status;
}

function fail(page: Page, problem: string): void {
  page.status.textContent = "";
  page.error.textContent = problem;
  page.error.hidden = false;
}

/** A GET that answers the response, or the problem in plain words. */
async function get(url: string, headers: Record<string, string> = {}): Promise<Result<Response, string>> {
  let response: Response;
  try {
    response = await fetch(url, { cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer", headers });
  } catch {
    return err(problemWords("network"));
  }
  if (response.ok) return ok(response);
  const body = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  return err(problemWords(body.success ? body.data.error.code : undefined, response.status));
}

async function fetchMeta(api: string): Promise<Result<HandoffMeta, string>> {
  const response = await get(`${api}/meta`);
  if (!response.ok) return response;
  const meta = handoffMetaSchema.safeParse(await response.value.json().catch(() => undefined));
  return meta.success ? ok(meta.data) : err(problemWords(undefined, response.value.status));
}

function showMeta(page: Page, meta: HandoffMeta): void {
  const words = metaWords(meta);
  page.expires.textContent = words.expires;
  page.views.textContent = words.views;
  page.size.textContent = words.size;
  page.scope.textContent = words.scope;
  page.meta.hidden = false;
}

/** The body (spends a view): sends the read token derived from the key, never the key itself. */
async function fetchBody(api: string, key: string): Promise<Result<Response, string>> {
  return get(api, { [READ_TOKEN_HEADER]: await deriveReadToken(key) });
}

async function openDocument(page: Page, api: string, key: string, meta: HandoffMeta): Promise<void> {
  const button = page.open as HTMLButtonElement;
  button.disabled = true;
  say(page, "Opening…");
  const response = await fetchBody(api, key);
  if (!response.ok) {
    button.hidden = true;
    return fail(page, response.error);
  }
  let opened: Awaited<ReturnType<typeof openHandoff>>;
  try {
    opened = await openHandoff(new Uint8Array(await response.value.arrayBuffer()), key);
  } catch (error) {
    button.hidden = true;
    return fail(page, problemWords(isHandoffError(error) ? error.reason : "network"));
  }
  page.text.textContent = new TextDecoder().decode(opened.plaintext);
  page.fileName.textContent = opened.meta.file_name;
  page.format.textContent = opened.meta.format;
  page.created.textContent = when(opened.meta.created_at);
  if (meta.views_left !== null) showMeta(page, { ...meta, views_used: meta.views_used + 1, views_left: meta.views_left - 1 });
  button.hidden = true;
  page.document.hidden = false;
  say(page, "Opened: this spent one view.");
  page.text.focus();
}

async function copyText(page: Page): Promise<void> {
  try {
    await navigator.clipboard.writeText(page.text.textContent ?? "");
    page.copyStatus.textContent = "Copied.";
  } catch {
    // No clipboard permission (or no secure context): select the text so one keystroke copies it.
    const range = document.createRange();
    range.selectNodeContents(page.text);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    page.copyStatus.textContent = "Selected: press Ctrl+C (⌘C on a Mac) to copy.";
  }
}

async function main(): Promise<void> {
  const page = findPage();
  page.resume.textContent = resumeCommand(location.href);
  page.copy.addEventListener("click", () => void copyText(page));
  // The worker serves this page only at a well-formed /h/<id>; the API sits beside it.
  const api = location.pathname.replace(/\/h\/([^/]+)$/, "/v1/handoffs/$1");
  const key = location.hash.slice(1);
  say(page, "Checking the link…");
  const meta = await fetchMeta(api);
  if (!meta.ok) return fail(page, meta.error);
  showMeta(page, meta.value);
  if (key === "") return fail(page, MISSING_KEY);
  // A damaged key is caught here, before it could cost a view.
  if (!parseShareKey(key).ok) return fail(page, problemWords("decrypt_failed"));
  say(page, "Opening the handoff spends one of its views; the metadata above did not.");
  page.open.hidden = false;
  page.open.addEventListener("click", () => void openDocument(page, api, key, meta.value), { once: true });
}

void main();
