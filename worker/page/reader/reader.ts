// The share page's script (bundled by scripts/build-reader.js into dist/public/reader.js). It
// decrypts with the same envelope code as the CLI. The key is read from location.hash and goes
// nowhere: not into a request, not into a log. The handoff is untrusted text: it reaches the page
// only as text nodes and elements built one by one (document-dom.ts), never parsed as HTML.
import { errorBodySchema } from "../../../shared/api/error.js";
import { type HandoffMeta, handoffMetaSchema } from "../../../shared/api/handoff.js";
import { SHARE_RESUME_COMMAND } from "../../../shared/ce/resume-command.js";
import { readPayload } from "../../../shared/crypto/payload.js";
import { openHandoff } from "../../../shared/crypto/envelope.js";
import { parseShareKey } from "../../../shared/crypto/key.js";
import { derivePassphraseKey } from "../../../shared/crypto/passphrase.js";
import { READ_TOKEN_HEADER, deriveReadToken } from "../../../shared/crypto/read-token.js";
import { type Result, err, isHandoffError, ok } from "../../../shared/errors.js";
import { config } from "zod/mini";
import { PAGE_IDS } from "../page-ids.js";
import { type Page, showDocument } from "./document-dom.js";
import { type PageState, STATE_WORDS, metaWords, stateFor } from "./words.js";

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
  // A passphrase link refused the read token: no view was spent, and the reader may try again.
  if (body.success && body.data.error.details?.passphrase === true) return err("wrong_passphrase");
  return err(stateFor(body.success ? body.data.error.code : undefined));
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
  page.expires.textContent = words.expires;
  page.views.textContent = words.views;
  page.size.textContent = words.size;
  page.scope.textContent = words.scope;
  page.meta.hidden = false;
}

async function openDocument(page: Page, api: string, key: string, meta: HandoffMeta, resume: string): Promise<void> {
  const button = page.open as HTMLButtonElement;
  button.disabled = true;
  say(page, "Opening…");
  const body = await fetchBody(api, key);
  if (!body.ok) return showState(page, body.error);
  await showOpened(page, body.value, key, meta, resume);
}

/** Decrypts the fetched envelope (one view spent) and shows it. */
async function showOpened(page: Page, bytes: Uint8Array, key: string, meta: HandoffMeta, resume: string, passKey?: Uint8Array): Promise<void> {
  let opened: Awaited<ReturnType<typeof openHandoff>>;
  try {
    opened = await openHandoff(bytes, key, passKey);
  } catch (error) {
    return showState(page, isHandoffError(error) && error.reason === "decrypt_failed" ? "wrong_key" : "server");
  }
  // Payload format 2: the document and the sender's uncommitted work, offered as a download.
  const payload = readPayload(opened);
  if (!payload.ok) return showState(page, "server");
  page.intro.hidden = true;
  page.meta.hidden = true;
  showDocument(page, payload.value.document as Uint8Array<ArrayBuffer>, opened.meta, resume, payload.value.changes as Uint8Array<ArrayBuffer> | undefined);
  const left = meta.views_left === null ? "" : ` ${meta.views_left - 1} of ${meta.max_views ?? meta.views_left} left.`;
  say(page, `Opened: this spent one view.${left}`);
  page.heading.focus();
}

/**
 * A passphrase link: the passphrase is typed here, turned into a key in this browser (PBKDF2,
 * about a second) and never sent; a wrong one is refused by the server without spending a view,
 * so the form stays for another try.
 */
function askPassphrase(page: Page, api: string, key: string, meta: HandoffMeta, resume: string): void {
  const form = page.passphraseForm as HTMLFormElement;
  const input = page.passphrase as HTMLInputElement;
  const submit = form.querySelector("button") as HTMLButtonElement;
  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      submit.disabled = true;
      page.passphraseStatus.textContent = "Deriving the key from the passphrase…";
      try {
        const passKey = await derivePassphraseKey(key, input.value);
        const body = await fetchBody(api, key, passKey);
        if (!body.ok && body.error === "wrong_passphrase") {
          page.passphraseStatus.textContent = STATE_WORDS.wrong_passphrase.what;
          input.select();
          return;
        }
        form.hidden = true;
        if (!body.ok) return showState(page, body.error);
        await showOpened(page, body.value, key, meta, resume, passKey);
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
  const resume = SHARE_RESUME_COMMAND;
  const key = location.hash.slice(1);
  page.resume.textContent = resume;
  // The worker serves this page only at a well-formed /h/<id>; the API sits beside it.
  const api = location.pathname.replace(/\/h\/([^/]+)$/, "/v1/handoffs/$1");
  say(page, "Checking the link…");
  const meta = await fetchMeta(api);
  if (!meta.ok) return showState(page, meta.error);
  showMeta(page, meta.value);
  if (key === "") return showState(page, "missing_key", true);
  // A damaged key is caught here, before it could cost a view.
  if (!parseShareKey(key).ok) return showState(page, "bad_key", true);
  say(page, "Looking at this page spent no view; opening the handoff spends one.");
  if (meta.value.passphrase) return askPassphrase(page, api, key, meta.value, resume);
  page.open.hidden = false;
  page.open.addEventListener("click", () => void openDocument(page, api, key, meta.value, resume), { once: true });
}

void main();
