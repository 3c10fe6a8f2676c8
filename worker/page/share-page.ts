/**
 * The page a browser sees at a share link `/h/<id>`. The HTML itself reads no storage and counts
 * no view; its one script (the reader, worker/page/reader/) reads the key from the URL fragment,
 * which never reaches this server, fetches the metadata, and spends a view only when the visitor
 * presses "Open". Without JavaScript the page still says how to open the link with the CLI.
 */
import { DEFAULT_CSP } from "../http/security-headers.js";
import { escapeHtml, pageStart } from "./html.js";
import { pageStyleSource } from "./page-style.js";
import { pageId } from "./page-ids.js";
import { resumeWords } from "./resume-words.js";
/** The reader's file in the static assets (dist/public), and where the page loads it from. */
export const READER_ASSET = "reader.js";
export const READER_ASSET_PATH = `/h/assets/${READER_ASSET}`;

/** The page for share link `id` (already checked to be a well-formed id). */
export function sharePageHtml(id: string): string {
  const safeId = escapeHtml(id);
  const i = pageId;
  // The plain link's command until the reader knows better: without JavaScript, it is the one shown.
  const resume = resumeWords("link", id);
  return `${pageStart("Handoff share link", `<script src="${READER_ASSET_PATH}" defer></script>\n`)}<h1 id="${i("heading")}" tabindex="-1">A shared handoff</h1>
<p id="${i("status")}" role="status" aria-live="polite"></p>
<div id="${i("problem")}" class="problem" role="alert" hidden><p id="${i("problemWhat")}"></p><p id="${i("problemTodo")}"></p></div>
<section id="${i("meta")}" aria-labelledby="meta-title" hidden>
<h2 id="meta-title">About this link</h2>
<dl class="facts">
<dt>Expires</dt><dd id="${i("expires")}"></dd>
<dt>Views left</dt><dd id="${i("views")}"></dd>
<dt>Size</dt><dd id="${i("size")}"></dd>
<dt>Who may open it</dt><dd id="${i("scope")}"></dd>
</dl>
<p><button type="button" class="primary" id="${i("open")}" hidden>Open (spends one view)</button></p>
<form id="${i("passphraseForm")}" hidden>
<p id="passphrase-help">This link also needs a passphrase, which the sender gives you apart from the link. A wrong one spends no view.</p>
<label class="field-label" for="${i("passphrase")}">Passphrase</label>
<p class="actions"><input type="password" id="${i("passphrase")}" aria-describedby="passphrase-help" autocomplete="off" spellcheck="false" maxlength="1024" required> <button type="submit" class="primary">Open (spends one view)</button></p>
<p id="${i("passphraseStatus")}" role="status" aria-live="polite"></p>
</form>
</section>
<div id="${i("intro")}">
<p>This link carries an AI coding session's handoff (id <code>${safeId}</code>). It is end-to-end encrypted: the key is the part of the link after <code>#</code>, which your browser never sends to this server. This page decrypts the handoff in your browser.</p>
<noscript><p>JavaScript is off, so this page cannot decrypt the handoff. Open the link with the Handoff CLI instead (below).</p></noscript>
</div>
<article id="${i("document")}" aria-labelledby="${i("heading")}" hidden>
<p id="${i("kind")}" class="kicker"></p>
<p id="${i("summary")}" class="summary" hidden></p>
<dl id="${i("card")}" class="card" aria-label="About this handoff"></dl>
<div class="actions">
<button type="button" class="primary" id="${i("copyResume")}">Copy resume command</button>
<button type="button" id="${i("download")}">Download</button>
<button type="button" id="${i("downloadChanges")}" hidden>Download changes</button>
<button type="button" id="${i("copy")}">Copy text</button>
<button type="button" id="${i("viewSource")}" aria-controls="${i("source")}" aria-expanded="false">View source</button>
<button type="button" id="${i("forget")}">Forget this copy</button>
</div>
<p id="${i("actionStatus")}" role="status" aria-live="polite"></p>
<div id="${i("notice")}" class="notice" role="note" hidden><p><strong id="${i("noticeTitle")}"></strong></p><p id="${i("noticeText")}"></p></div>
<section id="${i("frontmatter")}" aria-labelledby="frontmatter-title" hidden>
<h2 id="frontmatter-title">Frontmatter, as written</h2>
<pre id="${i("frontmatterText")}"></pre>
</section>
<div id="${i("rendered")}" class="prose"></div>
<pre id="${i("source")}" tabindex="0" aria-label="Source of the handoff, exactly as sent" hidden></pre>
</article>
<section id="${i("cli")}" aria-labelledby="cli-title">
<h2 id="cli-title">Resume it with the CLI</h2>
<p id="${i("cliHow")}">${escapeHtml(resume.how)}</p>
<pre id="${i("resume")}">${escapeHtml(resume.command)}</pre>
</section>
</main>
<footer class="foot"><p>The link may be limited in time, in views, or to a team, and its owner can revoke it. Treat it as a secret: whoever holds it can read the handoff until its limits run out. Do not pass it through a URL shortener or a chat that unfurls links.</p></footer>
</body>
</html>
`;
}

let policy: Promise<string> | undefined;

/**
 * The page's CSP: scripts and fetches only from this origin (the reader asset and the API), this
 * page's inline style by hash, nothing else. Computed once per isolate.
 */
export function sharePageCsp(): Promise<string> {
  policy ??= pageStyleSource().then((style) =>
    [
      DEFAULT_CSP,
      "script-src 'self'",
      "connect-src 'self'",
      `style-src ${style}`,
      "img-src 'none'",
      // The reader builds the handoff's DOM node by node; no string may ever reach an HTML sink.
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join("; "),
  );
  return policy;
}
