/**
 * The page a browser sees at a share link `/h/<id>`. It is static: it reads no storage, counts no
 * view and runs no script (the key sits in the URL fragment, which only a script could read, and a
 * strict CSP allows none). It tells the visitor what the link is and how to open it.
 */
import { encodeBase64Url } from "../../shared/base64url.js";
import { DEFAULT_CSP } from "../http/security-headers.js";

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}" +
  "code,pre{font-family:ui-monospace,monospace}pre{background:#f3f3f3;padding:.75rem;overflow-x:auto;white-space:pre-wrap}";

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
</head>
<body>
<h1>A shared handoff</h1>
<p>This link carries an AI coding session's handoff (id <code>${safeId}</code>). It is end-to-end encrypted: the key is the part of the link after <code>#</code>, which your browser never sends to this server, so the server cannot read it.</p>
<p>Open it with the Handoff CLI, passing the <strong>full link you were given, including everything after <code>#</code></strong>:</p>
<pre>handoff resume '&lt;the full link, including the part after #&gt;'</pre>
<p>Opening it counts as one view. The link may be limited in time, in views, or to a team, and its owner can revoke it. Loading this page counts no view.</p>
<p>Treat the link as a secret: whoever holds it can read the handoff until its limits run out. Do not pass it through a URL shortener or a chat that unfurls links.</p>
</body>
</html>
`;
}

let policy: Promise<string> | undefined;

/** The default CSP plus exactly this page's inline style, by hash (computed once per isolate). */
export function sharePageCsp(): Promise<string> {
  policy ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(STYLE))
    .then((digest) => {
      const hash = encodeBase64Url(new Uint8Array(digest)).replace(/-/g, "+").replace(/_/g, "/");
      return `${DEFAULT_CSP}; style-src 'sha256-${hash}='`;
    });
  return policy;
}
