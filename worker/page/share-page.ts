/**
 * The page a browser sees at a share link `/h/<id>`. The HTML itself reads no storage and counts
 * no view; its one script (the reader, worker/page/reader/) reads the key from the URL fragment,
 * which never reaches this server, fetches the metadata, and spends a view only when the visitor
 * presses "Open". Without JavaScript the page still says how to open the link with the CLI.
 */
import { encodeBase64Url } from "../../shared/base64url.js";
import { DEFAULT_CSP } from "../http/security-headers.js";
import { pageId } from "./page-ids.js";
/** The reader's file in the static assets (dist/public), and where the page loads it from. */
export const READER_ASSET = "reader.js";
export const READER_ASSET_PATH = `/h/assets/${READER_ASSET}`;

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}" +
  "code,pre{font-family:ui-monospace,monospace}pre{background:#f3f3f3;padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}" +
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}" +
  "button{font:inherit;padding:.4rem .9rem;cursor:pointer}" +
  "#error{border-left:4px solid #b00020;padding:.5rem .75rem;background:#fdecee}";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The page for share link `id` (already checked to be a well-formed id). */
export function sharePageHtml(id: string): string {
  const safeId = escapeHtml(id);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Handoff share link</title>
<style>${STYLE}</style>
<script src="${READER_ASSET_PATH}" defer></script>
</head>
<body>
<main>
<h1>A shared handoff</h1>
<p>This link carries an AI coding session's handoff (id <code>${safeId}</code>). It is end-to-end encrypted: the key is the part of the link after <code>#</code>, which your browser never sends to this server. This page decrypts the handoff in your browser.</p>
<noscript><p>JavaScript is off, so this page cannot decrypt the handoff. Open the link with the Handoff CLI instead (below).</p></noscript>
<p id="${pageId("status")}" role="status" aria-live="polite"></p>
<p id="${pageId("error")}" role="alert" hidden></p>
<section id="${pageId("meta")}" aria-labelledby="meta-title" hidden>
<h2 id="meta-title">About this link</h2>
<dl>
<dt>Expires</dt><dd id="${pageId("expires")}"></dd>
<dt>Views left</dt><dd id="${pageId("views")}"></dd>
<dt>Size</dt><dd id="${pageId("size")}"></dd>
<dt>Who may open it</dt><dd id="${pageId("scope")}"></dd>
</dl>
<p><button type="button" id="${pageId("open")}" hidden>Open (spends one view)</button></p>
</section>
<section id="${pageId("document")}" aria-labelledby="document-title" hidden>
<h2 id="document-title">The handoff</h2>
<dl>
<dt>File name</dt><dd id="${pageId("fileName")}"></dd>
<dt>Format</dt><dd id="${pageId("format")}"></dd>
<dt>Created</dt><dd id="${pageId("created")}"></dd>
</dl>
<p><button type="button" id="${pageId("copy")}">Copy</button> <span id="${pageId("copyStatus")}" role="status"></span></p>
<pre id="${pageId("text")}" tabindex="0" aria-labelledby="document-title"></pre>
</section>
<section aria-labelledby="cli-title">
<h2 id="cli-title">Resume it with the CLI</h2>
<p>Pass the <strong>full link, including everything after <code>#</code></strong>. Opening it there counts one view too.</p>
<pre id="${pageId("resume")}">handoff resume '&lt;the full link, including the part after #&gt;'</pre>
</section>
<p>The link may be limited in time, in views, or to a team, and its owner can revoke it. Treat it as a secret: whoever holds it can read the handoff until its limits run out. Do not pass it through a URL shortener or a chat that unfurls links.</p>
</main>
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
  policy ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(STYLE))
    .then((digest) => {
      const hash = encodeBase64Url(new Uint8Array(digest)).replace(/-/g, "+").replace(/_/g, "/");
      return [DEFAULT_CSP, "script-src 'self'", "connect-src 'self'", `style-src 'sha256-${hash}='`, "img-src 'none'"].join("; ");
    });
  return policy;
}
