// The share page's script (bundled by scripts/build-reader.js into dist/public/reader.js). It
// decrypts with the same envelope code as the CLI. The key is read from location.hash and goes
// nowhere: not into a request, not into a log. The handoff is untrusted text: it reaches the page
// only as text nodes and elements built one by one (document-dom.ts), never parsed as HTML.
import { errorBodySchema } from "../../../shared/api/error.js";
import { type HandoffMeta, handoffMetaSchema } from "../../../shared/api/handoff.js";
import { readPayload } from "../../../shared/crypto/payload.js";
import { type EnvelopeMeta, openHandoff } from "../../../shared/crypto/envelope.js";
import { parseShareKey } from "../../../shared/crypto/key.js";
import { derivePassphraseKey } from "../../../shared/crypto/passphrase.js";
import { READ_TOKEN_HEADER, deriveReadToken } from "../../../shared/crypto/read-token.js";
import { type Result, err, isHandoffError, ok } from "../../../shared/errors.js";
import { config } from "zod/mini";
import { PAGE_IDS } from "../page-ids.js";
import { type LinkKind, linkKindOf, resumeWords } from "../resume-words.js";
import { type Page, showDocument, showLinkFacts } from "./document-dom.js";
import { type OpenedCopy, forgetOpened, keepOpened, openedCopy } from "./opened-copy.js";
import { timeNode } from "./time-dom.js";
import { type PageState, STATE_WORDS, metaWords, pageStateOf, viewsWords } from "./words.js";

// zod would probe for eval to speed up object parsing; this page's CSP forbids eval, and the probe
// would log a violation.
config({ jitless: true });

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

/** Turns the page into the page for `state`: what happened, what to do. */
function showState(page: Page, state: PageState, keepMeta = false): void {
  const words = STATE_WORDS[state];
  page.heading.textContent = words.title;
  document.title = `${words.title} · Handoff`;
  say(page, "");
  page.intro.hidden = true;
  page.problemWhat.textContent = words.what;
  page.problemTodo.textContent = words.todo;
  page.problem.dataset.state = state;
  page.problem.hidden = false;
  page.open.hidden = true;
  page.meta.hidden = !keepMeta || page.meta.hidden;
  page.cli.hidden = !words.cli;
}

/** A GET that answers the response, or the page to show instead. */
async function get(url: string, headers: Record<string, string> = {}): Promise<Result<Response, PageState>> {
  let response: Response;
  try {
    response = await fetch(url, { cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer", headers });
  } catch {
    return err("network");
  }
  if (response.ok) return ok(response);
  const body = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  return err(pageStateOf(body.success ? body.data.error : undefined));
}

async function fetchMeta(api: string): Promise<Result<HandoffMeta, PageState>> {
  const response = await get(`${api}/meta`);
  if (!response.ok) return response;
  const meta = handoffMetaSchema.safeParse(await response.value.json().catch(() => undefined));
  return meta.success ? ok(meta.data) : err("server");
}

/**
 * The one request that spends a view: the envelope's bytes. `_key` is the link's secret; it never
 * goes on the wire (a token derived from it may).
 */
async function fetchBody(api: string, key: string, passKey?: Uint8Array): Promise<Result<Uint8Array, PageState>> {
  const response = await get(api, { [READ_TOKEN_HEADER]: await deriveReadToken(key, passKey) });
  if (!response.ok) return response;
  try {
    return ok(new Uint8Array(await response.value.arrayBuffer()));
  } catch {
    return err("network");
  }
}

function showMeta(page: Page, meta: HandoffMeta): void {
  const words = metaWords(meta);
  page.expires.replaceChildren(timeNode(meta.expires_at));
  page.views.textContent = words.views;
  page.size.textContent = words.size;
  page.scope.textContent = words.scope;
  page.meta.hidden = false;
}

/** The link this page is for: its id, its API, its key (never sent) and the resume command. */
interface Link {
  id: string;
  api: string;
  key: string;
  resume: string;
}

/** The page's one resume command (and what Copy resume command copies), for the kind of link this is. */
function showResume(page: Page, link: Link, kind: LinkKind): void {
  const words = resumeWords(kind, link.id);
  link.resume = words.command;
  page.resume.textContent = words.command;
  page.cliHow.textContent = words.how;
}

const KEPT_WORDS = "This tab keeps it, still encrypted, until you close the tab or press Forget this copy.";

/** An opened envelope: its metadata, the document, and (payload format 2) the sender's uncommitted work. */
interface Opened {
  meta: EnvelopeMeta;
  document: Uint8Array<ArrayBuffer>;
  changes?: Uint8Array<ArrayBuffer>;
}

async function decrypt(bytes: Uint8Array, key: string, passKey?: Uint8Array): Promise<Result<Opened, PageState>> {
  let opened: Awaited<ReturnType<typeof openHandoff>>;
  try {
    opened = await openHandoff(bytes, key, passKey);
  } catch (error) {
    return err(isHandoffError(error) && error.reason === "decrypt_failed" ? "wrong_key" : "server");
  }
  // Payload format 2: the document and the sender's uncommitted work, offered as a download.
  const payload = readPayload(opened);
  if (!payload.ok) return err("server");
  const { document, changes } = payload.value;
  return ok({ meta: opened.meta, document: document as Uint8Array<ArrayBuffer>, ...(changes === undefined ? {} : { changes: changes as Uint8Array<ArrayBuffer> }) });
}

async function openDocument(page: Page, link: Link, meta: HandoffMeta): Promise<void> {
  const button = page.open as HTMLButtonElement;
  button.disabled = true;
  say(page, "Opening…");
  const body = await fetchBody(link.api, link.key);
  if (!body.ok) return showState(page, body.error);
  await showFetched(page, link, meta, body.value);
}

/** Decrypts the envelope just fetched (one view spent), keeps it for this tab, and shows it. */
async function showFetched(page: Page, link: Link, meta: HandoffMeta, bytes: Uint8Array, passKey?: Uint8Array): Promise<void> {
  const opened = await decrypt(bytes, link.key, passKey);
  if (!opened.ok) return showState(page, opened.error);
  const after: HandoffMeta = { ...meta, views_used: meta.views_used + 1, views_left: meta.views_left === null ? null : Math.max(0, meta.views_left - 1) };
  const kept = keepOpened(link.id, { envelope: new Uint8Array(bytes), link: after });
  showOpened(page, link, opened.value, after);
  const left = after.views_left === null ? "" : ` ${viewsWords(after)} left.`;
  say(page, `Opened: this spent one view.${left} ${kept ? KEPT_WORDS : "This browser keeps no copy for this tab, so a reload would spend another view."}`);
}

/** Shows this tab's kept copy again, decrypted here: no request for the body, no view spent. */
function showKept(page: Page, link: Link, opened: Opened, meta: HandoffMeta): void {
  showOpened(page, link, opened, meta);
  const left = meta.views_left === null ? "" : ` ${viewsWords(meta)} left.`;
  say(page, `Opened earlier in this tab: showing it again spent no view.${left} ${KEPT_WORDS}`);
}

function showOpened(page: Page, link: Link, opened: Opened, meta: HandoffMeta): void {
  page.intro.hidden = true;
  page.meta.hidden = true;
  showDocument(page, opened.document, opened.meta, link.resume, opened.changes);
  showLinkFacts(page, meta);
  page.forget.addEventListener("click", () => {
    forgetOpened(link.id);
    location.reload();
  });
  page.heading.focus();
}

/** The kept copy of a link without a passphrase: the key in the URL opens it again. */
async function reopen(page: Page, link: Link, kept: OpenedCopy, meta: HandoffMeta): Promise<void> {
  if (meta.passphrase) return askPassphrase(page, link, meta, kept);
  const opened = await decrypt(kept.envelope, link.key);
  if (!opened.ok) return showState(page, opened.error);
  showKept(page, link, opened.value, meta);
}

/**
 * A passphrase link: the passphrase is typed here, turned into a key in this browser (PBKDF2,
 * about a second) and never sent; a wrong one is refused by the server without spending a view,
 * so the form stays for another try. With this tab's copy (`kept`), the passphrase opens that
 * copy here and nothing is fetched.
 */
function askPassphrase(page: Page, link: Link, meta: HandoffMeta, kept?: OpenedCopy): void {
  const form = page.passphraseForm as HTMLFormElement;
  const input = page.passphrase as HTMLInputElement;
  const submit = form.querySelector("button") as HTMLButtonElement;
  if (kept !== undefined) {
    say(page, "You opened this link earlier in this tab; its passphrase shows it again and spends no view.");
    submit.textContent = "Show it again";
  }
  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      submit.disabled = true;
      page.passphraseStatus.textContent = "Deriving the key from the passphrase…";
      try {
        const passKey = await derivePassphraseKey(link.key, input.value);
        if (kept !== undefined) {
          const opened = await decrypt(kept.envelope, link.key, passKey);
          if (!opened.ok && opened.error === "wrong_key") {
            page.passphraseStatus.textContent = "That passphrase does not open this handoff. No view was spent.";
            input.select();
            return;
          }
          form.hidden = true;
          return opened.ok ? showKept(page, link, opened.value, meta) : showState(page, opened.error);
        }
        const body = await fetchBody(link.api, link.key, passKey);
        // Refused or not judged yet: the form stays for another try, and says what to do.
        if (!body.ok && (body.error === "wrong_passphrase" || body.error === "slowed")) {
          const words = STATE_WORDS[body.error];
          page.passphraseStatus.textContent = body.error === "slowed" ? `${words.what} ${words.todo}` : words.what;
          input.select();
          return;
        }
        form.hidden = true;
        if (!body.ok) return showState(page, body.error);
        await showFetched(page, link, meta, body.value, passKey);
      } catch {
        page.passphraseStatus.textContent = "The passphrase must be 1 to 1024 characters.";
      } finally {
        submit.disabled = false;
      }
    })();
  });
  input.focus();
}

async function main(): Promise<void> {
  const page = findPage();
  // Taken once: a link inside the handoff to "#section" would change location.hash later.
  const key = location.hash.slice(1);
  // The worker serves this page only at a well-formed /h/<id>; the API sits beside it.
  const id = location.pathname.slice(location.pathname.lastIndexOf("/") + 1);
  const link: Link = { id, api: location.pathname.replace(/\/h\/([^/]+)$/, "/v1/handoffs/$1"), key, resume: resumeWords("link", id).command };
  say(page, "Checking the link…");
  const meta = await fetchMeta(link.api);
  const kept = openedCopy(id);
  if (!meta.ok) {
    // This tab may have spent the last view: used up for everyone else, not for the copy it kept.
    if (kept !== undefined && meta.error === "exhausted" && Date.parse(kept.link.expires_at) > Date.now() && parseShareKey(key).ok) {
      showResume(page, link, linkKindOf(kept.link));
      showMeta(page, kept.link);
      return reopen(page, link, kept, kept.link);
    }
    // Expired, revoked or gone: the sender's limits hold for this tab's copy too.
    if (meta.error === "expired" || meta.error === "revoked" || meta.error === "not_found" || meta.error === "exhausted") forgetOpened(id);
    // A team link refuses its metadata to a browser: the team's own command opens it.
    if (meta.error === "team") showResume(page, link, "team");
    return showState(page, meta.error);
  }
  showResume(page, link, linkKindOf(meta.value));
  showMeta(page, meta.value);
  if (key === "") return showState(page, "missing_key", true);
  // A damaged key is caught here, before it could cost a view.
  if (!parseShareKey(key).ok) return showState(page, "bad_key", true);
  if (kept !== undefined) return reopen(page, link, kept, meta.value);
  say(page, "Looking at this page spent no view; opening the handoff spends one.");
  if (meta.value.passphrase) return askPassphrase(page, link, meta.value);
  page.open.hidden = false;
  page.open.addEventListener("click", () => void openDocument(page, link, meta.value), { once: true });
}

void main();
