// The landing page at `/`, through the real worker in workerd: what a person sees who opens the
// server's URL. HTML under a CSP that allows only its own style, cacheable, the same for everyone,
// reading no storage; every other unknown path, API or not, stays the one JSON 404.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv, Bindings } from "../../worker/bindings.js";
import { securityHeaders } from "../../worker/http/security-headers.js";
import { LANDING_CACHE_CONTROL } from "../../worker/page/landing-page.js";
import { ORIGIN, call, errorCode, expectSecurityHeaders, publish } from "./helpers.js";

/** A binding that fails the request if anything touches it: the page must not. */
const untouchable = (name: string) =>
  new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`the landing page touched ${name}.${String(property)}`);
      },
    },
  );

const NO_STORAGE = Object.fromEntries((["BODIES", "META", "ACCESS", "REGISTRY", "PUBLISH_LIMITER", "READ_LIMITER", "ASSETS"] as const).map((name) => [name, untouchable(name)])) as Partial<Bindings>;

describe("GET /", () => {
  it("is HTML under a CSP that allows only its inline style, with the strict headers, and cacheable", async () => {
    const res = await call("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8$/i);
    expect(res.headers.get("cache-control")).toBe(LANDING_CACHE_CONTROL);
    // Every other header of every response (docs/api.md), Cache-Control aside.
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    const html = await res.text();
    const style = /<style>([^<]*)<\/style>/.exec(html)![1]!;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(style)));
    expect(res.headers.get("content-security-policy")).toBe(
      `default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; style-src 'sha256-${btoa(String.fromCharCode(...digest))}'; img-src 'none'`,
    );
    expect(html).not.toMatch(/<script|<form|<img|<iframe|\son\w+=/i);
  });

  it("says what the server is, how to point the CLI at it (with this server's own URL), and where the docs are", async () => {
    const html = await (await call("/")).text();
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain("<title>Handoff publishing server</title>");
    expect(html).toContain("only ciphertext");
    expect(html).toContain("<code>#fragment</code>");
    expect(html).toContain(`<pre>handoff config set server ${ORIGIN}</pre>`);
    expect(html).toContain(`<pre>export HANDOFF_SERVER=${ORIGIN}</pre>`);
    for (const doc of ["docs/cli.md", "docs/deploy.md", "docs/api.md"]) expect(html).toContain(`<code>${doc}</code>`);
    // The docs are named, not linked: the page points at no other host.
    expect(html).not.toMatch(/https?:\/\/(?!handoff\.test)/);
  });

  it("says whether publishing needs a token, as the server is configured", async () => {
    const open = await (await call("/", { vars: { ALLOW_ANONYMOUS_PUBLISH: "true" } })).text();
    const closed = await (await call("/", { vars: { ALLOW_ANONYMOUS_PUBLISH: "false" } })).text();
    expect(open).toContain("takes handoffs without a token");
    expect(open).not.toContain("needs a token");
    expect(closed).toContain("Publishing here needs a token from this server's operator");
    expect(closed).toContain(">handoff config set token -</code>");
    expect(closed).not.toContain("without a token");
  });

  it("shows no data: it reads no storage, and is the same page before and after a publish", async () => {
    const before = await (await call("/", { vars: NO_STORAGE })).text();
    const { id } = await publish("ciphertext", "max_views=1");
    const after = await call("/", { vars: NO_STORAGE });
    expect(after.status).toBe(200);
    const text = await after.text();
    expect(text).toBe(before);
    expect(text).not.toContain(id);
    expect(text).not.toContain("/h/");
  });
});

describe("every other unknown path stays the one JSON 404, never cached", () => {
  it.each(["/v1", "/v1/", "/v1/nothing", "/index.html", "/docs", "/h", "/h/"])("%s", async (path) => {
    const res = await call(path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await errorCode(res)).toBe("not_found");
    expectSecurityHeaders(res);
  });
});

describe("the headers middleware and Cache-Control", () => {
  const app = new Hono<AppEnv>();
  app.use("*", securityHeaders);
  app.get("/fine", (c) => c.text("ok", 200, { "Cache-Control": "public, max-age=60" }));
  app.get("/plain", (c) => c.text("ok"));
  app.get("/refused", (c) => c.text("no", 404, { "Cache-Control": "public, max-age=60" }));

  it.each([
    ["a success that asks for caching keeps it", "/fine", "public, max-age=60"],
    ["a success that says nothing is not cached", "/plain", "no-store"],
    ["a failure is never cached, whatever it asks", "/refused", "no-store"],
  ])("%s", async (_label, path, expected) => {
    expect((await app.request(path)).headers.get("cache-control")).toBe(expected);
  });
});
