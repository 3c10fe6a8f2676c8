import { encodeBase64Url } from "../../shared/ids/base64url.js";

/**
 * The pages' one stylesheet (the share page and the landing page), inline and allowed by its hash
 * in each page's CSP. Light and dark follow the reader's `prefers-color-scheme`; the colours meet
 * WCAG AA contrast in both. One column that fits 320 px and caps its line length on a desktop.
 */
export const PAGE_STYLE = [
  ":root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#595959;--card:#f6f7f9;--line:#d5d8dd;--code:#f0f1f3;--link:#0b57d0;",
  "--focus:#0b57d0;--accent:#0b57d0;--accent-fg:#fff;--warn-bg:#fff4e5;--warn-line:#b45309;--bad-bg:#fdecee;--bad-line:#b00020}",
  "@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e8eaed;--muted:#a8adb4;--card:#1f2226;--line:#3a3f45;--code:#23272c;",
  "--link:#8ab4f8;--focus:#8ab4f8;--accent:#8ab4f8;--accent-fg:#10131a;--warn-bg:#33270f;--warn-line:#f0a43a;--bad-bg:#3a1d22;--bad-line:#f28b95}}",
  "*{box-sizing:border-box}",
  "body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,'Segoe UI',sans-serif;overflow-wrap:anywhere}",
  ".site,main,.foot{max-width:50rem;margin:0 auto;padding:0 1rem}",
  ".site{padding-top:1rem;padding-bottom:.5rem;border-bottom:1px solid var(--line)}.brand{margin:0;font-weight:700;letter-spacing:.02em}",
  "main{padding-top:1.5rem;padding-bottom:2rem}",
  "h1{font-size:1.75rem;line-height:1.25;margin:0 0 .5rem}h2{font-size:1.3rem;margin:1.75rem 0 .5rem}h3{font-size:1.1rem}",
  "a{color:var(--link)}",
  ":focus-visible{outline:3px solid var(--focus);outline-offset:2px}",
  "code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}",
  "pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere}",
  ":not(pre)>code{background:var(--code);border-radius:4px;padding:.1em .3em}code.cmd{white-space:nowrap}",
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}dt{font-weight:600;color:var(--muted)}dd{margin:0;min-width:0}",
  "@media (max-width:30rem){dl{grid-template-columns:1fr}dd{margin-bottom:.4rem}}",
  // The link's four facts stay two columns on a phone, so Open is on the first screen.
  ".facts{grid-template-columns:max-content 1fr}.facts dd{margin-bottom:0}",
  "button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid var(--accent);background:transparent;color:var(--fg);cursor:pointer;min-height:2.75rem}",
  "button.primary{background:var(--accent);color:var(--accent-fg)}button:disabled{opacity:.6;cursor:default}",
  "input{font:inherit;padding:.5rem;border:1px solid var(--line);border-radius:6px;background:transparent;color:var(--fg);min-height:2.75rem;min-width:0;flex:1 1 12rem}",
  ".actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0 .25rem}",
  // A field's visible label sits right above it.
  ".field-label{display:block;font-weight:600;margin-top:1rem}.field-label+.actions{margin-top:.25rem}",
  ".card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:.75rem 0}",
  ".summary{font-size:1.1rem;margin:.25rem 0 .75rem}.kicker{margin:0 0 .25rem;color:var(--muted);font-size:.9rem}",
  ".keywords{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;margin:0;padding:0}",
  ".keywords li{border:1px solid var(--line);border-radius:999px;padding:0 .6rem;font-size:.9rem}",
  ".notice{border-left:4px solid var(--warn-line);background:var(--warn-bg);padding:.5rem .9rem;margin:1rem 0}.notice p{margin:.25rem 0}",
  ".problem{border-left:4px solid var(--bad-line);background:var(--bad-bg);padding:.5rem .9rem;margin:1rem 0}.problem p{margin:.4rem 0}",
  ".prose{margin-top:1rem}.prose blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}",
  ".table-wrap{overflow-x:auto}table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:.3rem .6rem;text-align:left}",
  ".align-center{text-align:center}.align-right{text-align:right}",
  ".foot{color:var(--muted);font-size:.9rem;padding-bottom:2rem}",
].join("");

let hash: Promise<string> | undefined;

/** The CSP source that allows PAGE_STYLE inline (`'sha256-…'`), computed once per isolate. */
export function pageStyleSource(): Promise<string> {
  hash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(PAGE_STYLE)).then((digest) => {
    const base64 = encodeBase64Url(new Uint8Array(digest)).replace(/-/g, "+").replace(/_/g, "/");
    return `'sha256-${base64}='`;
  });
  return hash;
}
