import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBodySchema } from "../../shared/api/error.js";
import { healthSchema } from "../../shared/api/handoff.js";
import { call, errorCode, expectSecurityHeaders } from "./helpers.js";

afterEach(() => vi.restoreAllMocks());

describe("security headers on every response", () => {
  it.each([
    ["health", "/healthz", {}, 200],
    ["404 route", "/nope", {}, 404],
    ["404 id", "/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", {}, 404],
    ["400", "/v1/handoffs?max_views=0", { method: "POST", body: "x" }, 400],
    ["401", "/v1/team/handoffs", {}, 401],
    ["413", "/v1/handoffs", { method: "POST", body: new Uint8Array(2_000_000) }, 413],
    ["wrong method", "/v1/handoffs", { method: "PUT" }, 404],
  ] as const)("%s", async (_label, path, init, status) => {
    const res = await call(path, init);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res);
    if (status >= 400) errorBodySchema.parse(await res.json());
  });

  it("on a published body, its 201 and a 410", async () => {
    const res201 = await call("/v1/handoffs?max_views=1", { method: "POST", body: "x" });
    expectSecurityHeaders(res201);
    const { id } = (await res201.json()) as { id: string };
    expectSecurityHeaders(await call(`/v1/handoffs/${id}`));
    const gone = await call(`/v1/handoffs/${id}`);
    expect(gone.status).toBe(410);
    expectSecurityHeaders(gone);
  });

  it("through the deployed configuration too (the worker's own fetch)", async () => {
    const res = await exports.default.fetch("http://handoff.test/nowhere");
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    healthSchema.parse(await (await exports.default.fetch("http://handoff.test/healthz")).json());
  });
});

describe("rate limits", () => {
  // The limiter counts in fixed windows; across one window edge at most 2 × limit pass.
  it.each([
    ["publish", "/v1/handoffs", { method: "POST", body: "x" }, 60],
    ["read", "/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA/meta", {}, 600],
  ] as const)("%s: 429 with Retry-After once one client passes its limit", async (_label, path, init, limit) => {
    const ip = `192.0.2.${limit % 250}`;
    let limited: Response | undefined;
    for (let i = 0; i <= 2 * limit && !limited; i++) {
      const res = await call(path, { ...init, ip });
      if (res.status === 429) limited = res;
    }
    expect(limited).toBeDefined();
    expect(limited!.headers.get("retry-after")).toBe("60");
    expect(await errorCode(limited!)).toBe("rate_limited");
    expectSecurityHeaders(limited!);
    // Another client is not affected.
    expect((await call(path, { ...init, ip: "198.51.100.7" })).status).not.toBe(429);
  });
});

describe("internal errors", () => {
  it("are a bare 500 internal: the cause is logged, never sent", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = { put: () => Promise.reject(new Error("disk on fire at /secret/path")) } as unknown as R2Bucket;
    const res = await call("/v1/handoffs", { method: "POST", body: "x", vars: { BODIES: broken } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: "internal error" } });
    expect(text).not.toContain("disk on fire");
    expect(logged).toHaveBeenCalled();
    expect(JSON.stringify(logged.mock.calls.map((c) => String(c[1])))).toContain("disk on fire");
    expectSecurityHeaders(res);
  });

  it("a bad configuration var is a 500 that does not echo the var", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call("/v1/handoffs", { method: "POST", body: "x", vars: { MAX_BODY_BYTES: "lots" } });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("MAX_BODY_BYTES");
  });
});
