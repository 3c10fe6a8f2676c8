// The share page and its reader asset, through the real worker in workerd. What the script does in
// a browser is tested in test/browser/; here: headers, CSP, routing, and that neither costs a view.
import { describe, expect, it } from "vitest";
import { handoffMetaSchema } from "../../shared/api/handoff.js";
import { resumeWords } from "../../worker/page/resume-words.js";
import { READER_ASSET_PATH } from "../../worker/page/share-page.js";
import { call, errorCode, expectSecurityHeaders, publish } from "./helpers.js";

const ASSET_PATH = READER_ASSET_PATH;

function directives(res: Response): Map<string, string> {
  const csp = res.headers.get("content-security-policy") ?? "";
  return new Map(
    csp.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

async function viewsUsed(id: string): Promise<number> {
  const res = await call(`/v1/handoffs/${id}/meta`);
  expect(res.status).toBe(200);
  return handoffMetaSchema.parse(await res.json()).views_used;
}

describe("GET /h/:id", () => {
  it("is HTML that loads only the reader script, under a CSP that allows only it, its API calls and its style", async () => {
    const { id } = await publish("x", "max_views=1");
    const res = await call(`/h/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(res);
    const csp = directives(res);
    expect(Object.fromEntries([...csp].filter(([name]) => name !== "style-src"))).toEqual({
      "default-src": "'none'",
      "script-src": "'self'",
      "connect-src": "'self'",
      "img-src": "'none'",
      "require-trusted-types-for": "'script'",
      "trusted-types": "'none'",
      "frame-ancestors": "'none'",
      "base-uri": "'none'",
      "form-action": "'none'",
    });
    const html = await res.text();
    expect(html.match(/<script\b[^>]*>/gi)).toEqual([`<script src="${ASSET_PATH}" defer>`]);
    expect(html).toMatch(/<script [^>]*><\/script>/);
    const style = /<style>([^<]*)<\/style>/.exec(html)![1]!;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(style)));
    expect(csp.get("style-src")).toBe(`'sha256-${btoa(String.fromCharCode(...digest))}'`);
    // Without JavaScript the page still says how to open the link.
    expect(html).toContain("<noscript>");
    expect(html).toContain("handoff resume --paste");
  });
});

describe("GET /h/:id, the server-rendered page", () => {
  it("has one title, one h1 and one resume command, the one that works without JavaScript", async () => {
    const { id } = await publish("x", "max_views=1");
    const html = await (await call(`/h/${id}`)).text();
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<h1\b/g)).toHaveLength(1);
    expect(html.match(/handoff resume/g)).toEqual(["handoff resume"]);
    expect(html).toContain(`<pre id="resume">${resumeWords("link", id).command}</pre>`);
    expect(html).toContain(`<p id="cliHow">${resumeWords("link", id).how}</p>`);
  });

  it("labels the passphrase field visibly, tied to it by for/id, with the explanation as its description", async () => {
    const html = await (await call("/h/AAAAAAAAAAAAAAAAAAAAAA")).text();
    expect(html).toContain('<label class="field-label" for="passphrase">Passphrase</label>');
    const input = /<input [^>]*id="passphrase"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('type="password"');
    expect(input).toContain('aria-describedby="passphrase-help"');
    expect(html).toMatch(/<p id="passphrase-help">This link also needs a passphrase/);
  });
});

describe("GET /h/assets/:file", () => {
  it("serves the reader bundle (from the static assets) as JavaScript with the strict headers", async () => {
    const res = await call(ASSET_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expectSecurityHeaders(res);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    // The bundled reader: an IIFE that opens handoffs with the shared envelope code.
    const script = await res.text();
    expect(script.startsWith("(()=>{") || script.startsWith('"use strict";(()=>{')).toBe(true);
    expect(script).toContain("This link has expired");
  });
});

describe("404, with the one error shape and the strict headers", () => {
  it.each([
    ["a malformed id", "/h/%3Cscript%3E"],
    ["a too short id", "/h/AAAA"],
    ["the asset folder itself", "/h/assets"],
    ["an asset under another name", "/h/assets/reader-0000000000000000.js"],
    ["a file of the assets folder by its own path", "/reader.js"],
    ["another asset", "/h/assets/app.js"],
  ])("%s", async (_label, path) => {
    const res = await call(path);
    expect(res.status).toBe(404);
    expect(await errorCode(res)).toBe("not_found");
    expectSecurityHeaders(res);
  });
});

describe("no side effects", () => {
  it("neither the page nor its script counts a view", async () => {
    const { id } = await publish("x", "max_views=2");
    for (let i = 0; i < 3; i++) {
      expect((await call(`/h/${id}`)).status).toBe(200);
      expect((await call(ASSET_PATH)).status).toBe(200);
    }
    expect(await viewsUsed(id)).toBe(0);
    expect((await call(`/v1/handoffs/${id}`)).status).toBe(200);
    expect(await viewsUsed(id)).toBe(1);
  });

  it("the page reads no storage: it answers for an id that was never published", async () => {
    expect((await call("/h/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(200);
  });
});
