import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handoffMetaSchema } from "../../shared/api/handoff.js";
import { accessStub, call, errorCode, publish, textOf } from "./helpers.js";

describe("publish", () => {
  it("answers 201 with the share path, expiry, limits, owner token and retention", async () => {
    const before = Date.now();
    const published = await publish("opaque bytes", "expires_in=3600&max_views=3");
    expect(published.url).toBe(`/h/${published.id}`);
    expect(published.max_views).toBe(3);
    expect(published.scope).toBe("link");
    expect(published.owner_token).toMatch(/^hdo_[A-Za-z0-9_-]{43}$/);
    const expiresAt = Date.parse(published.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expiresAt).toBeLessThan(before + 3_600_000 + 60_000);
    expect(published.retention).toEqual({ policy: "delete-at-expiry-or-last-view", delete_after: published.expires_at });
  });

  it("defaults to 7 days, unlimited views, link scope", async () => {
    const before = Date.now();
    const published = await publish("x");
    expect(Date.parse(published.expires_at) - before).toBeGreaterThanOrEqual(604_800_000);
    expect(Date.parse(published.expires_at) - before).toBeLessThan(604_800_000 + 60_000);
    expect(published.max_views).toBeNull();
    expect(published.retention.policy).toBe("delete-at-expiry");
  });

  it.each([
    ["expires_in=0", "expires_in"],
    ["expires_in=2592001", "expires_in"],
    ["expires_in=soon", "expires_in"],
    ["expires_in=-5", "expires_in"],
    ["max_views=0", "max_views"],
    ["max_views=1001", "max_views"],
    ["max_views=1.5", "max_views"],
    ["scope=public", "scope"],
    ["maxviews=2", "maxviews"],
    ["max_views=1&max_views=1000", "max_views"],
    ["scope=link&expires_in=3600&scope=team", "scope"],
  ])("refuses %s with 400 naming %s", async (query, option) => {
    const res = await call(`/v1/handoffs?${query}`, { method: "POST", body: "x" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; details: { option: string } } };
    expect(body.error.code).toBe("invalid_option");
    expect(body.error.message).toContain(option);
    expect(body.error.details.option).toBe(option);
  });

  it("applies the configured expiry bounds (wrangler.toml: 300 s minimum)", async () => {
    const res = await call("/v1/handoffs?expires_in=299", { method: "POST", body: "x", vars: { MIN_EXPIRES_IN_SECONDS: "300" } });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("invalid_option");
  });

  it("refuses an empty body", async () => {
    const res = await call("/v1/handoffs", { method: "POST", body: "" });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("empty_input");
  });

  it("refuses anonymous publishing when the operator did not enable it (the wrangler.toml default)", async () => {
    const res = await exports.default.fetch("http://handoff.test/v1/handoffs", { method: "POST", body: "x" });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe("unauthorized");
  });

  it("never reuses an id: a claimed id cannot be claimed again, and fresh publishes get fresh ids", async () => {
    const published = await publish("first");
    const now = Date.now();
    const again = await accessStub(published.id).create({
      id: published.id,
      scope: "link",
      team: null,
      owner_hash: "x",
      read_hash: "x",
      size: 1,
      created_at: now,
      expires_at: now + 60_000,
      max_views: null,
    });
    expect(again).toBe(false);
    const res = await call(`/v1/handoffs/${published.id}`);
    expect(await textOf(res)).toBe("first");
    const ids = await Promise.all(Array.from({ length: 50 }, () => publish("y").then((p) => p.id)));
    expect(new Set([...ids, published.id]).size).toBe(51);
  });
});

describe("413 before the body is buffered", () => {
  const small = { MAX_BODY_BYTES: "1024" };

  it("accepts a body of exactly the limit", async () => {
    await publish(new Uint8Array(1024), "", { vars: small });
  });

  it("refuses from Content-Length", async () => {
    const res = await call("/v1/handoffs", { method: "POST", body: new Uint8Array(1025), vars: small });
    expect(res.status).toBe(413);
    expect(await errorCode(res)).toBe("too_large");
  });

  it("refuses a streamed body without Content-Length once it passes the limit", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 100) controller.close();
        else controller.enqueue(new Uint8Array(300));
      },
    });
    const res = await call("/v1/handoffs", { method: "POST", body: stream, vars: small });
    expect(res.status).toBe(413);
    expect(await errorCode(res)).toBe("too_large");
    // Nothing past the limit is kept, but the route reads the rest and drops it before the 413, so the
    // connection ends cleanly (the cap past which it cancels is tested in bounded-body.test.ts).
    expect(pulled).toBe(101);
  });

  it("refuses 1 MiB + 1 under the default limit", async () => {
    const res = await call("/v1/handoffs", { method: "POST", body: new Uint8Array(1_048_577) });
    expect(res.status).toBe(413);
  });
});

describe("read and meta", () => {
  it("serves the exact bytes and counts one view", async () => {
    const body = crypto.getRandomValues(new Uint8Array(20_480));
    const published = await publish(body, "max_views=5");
    const res = await call(`/v1/handoffs/${published.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(body);
    const meta = handoffMetaSchema.parse(await (await call(`/v1/handoffs/${published.id}/meta`)).json());
    expect(meta).toMatchObject({ id: published.id, size: 20_480, views_used: 1, views_left: 4, max_views: 5, scope: "link" });
    expect(meta.expires_at).toBe(published.expires_at);
  });

  it("/meta never counts a view", async () => {
    const published = await publish("x", "max_views=1");
    for (let i = 0; i < 5; i++) {
      const meta = handoffMetaSchema.parse(await (await call(`/v1/handoffs/${published.id}/meta`)).json());
      expect(meta.views_left).toBe(1);
    }
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
    const after = await call(`/v1/handoffs/${published.id}/meta`);
    expect(after.status).toBe(410);
    expect(await errorCode(after)).toBe("exhausted");
  });

  it("HEAD on the body counts no view (it is refused); HEAD on /meta is fine", async () => {
    const published = await publish("x", "max_views=1");
    const head = await call(`/v1/handoffs/${published.id}`, { method: "HEAD" });
    expect(head.status).toBe(400);
    expect((await call(`/v1/handoffs/${published.id}/meta`, { method: "HEAD" })).status).toBe(200);
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
  });

  it.each([["AAAAAAAAAAAAAAAAAAAAAA"], ["not-an-id"], ["AAAAAAAAAAAAAAAAAAAAAAAA"], ["%2e%2e"]])("404 for unknown or malformed id %s", async (id) => {
    for (const path of [`/v1/handoffs/${id}`, `/v1/handoffs/${id}/meta`]) {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(await errorCode(res)).toBe("not_found");
    }
  });

  it("100 concurrent reads of a 1-view handoff: exactly one 200, 99 410 exhausted", async () => {
    const published = await publish("burn after reading", "max_views=1");
    const responses = await Promise.all(Array.from({ length: 100 }, () => call(`/v1/handoffs/${published.id}`)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(99);
    const codes = await Promise.all(responses.filter((r) => r.status === 410).map(errorCode));
    expect(new Set(codes)).toEqual(new Set(["exhausted"]));
    const winner = responses.find((r) => r.status === 200)!;
    expect(await textOf(winner)).toBe("burn after reading");
  });

  it.each([2, 7, 25])("max_views %i: exactly that many of 60 concurrent reads succeed", async (k) => {
    const published = await publish("x", `max_views=${k}`);
    const statuses = await Promise.all(Array.from({ length: 60 }, () => call(`/v1/handoffs/${published.id}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(k);
    expect(statuses.filter((s) => s === 410)).toHaveLength(60 - k);
  });
});

describe("revoke", () => {
  it("204, then 0 of the next 100 reads succeed (all 410 revoked), and the body is deleted", async () => {
    const published = await publish("secret", "max_views=1000");
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
    const res = await call(`/v1/handoffs/${published.id}`, { method: "DELETE", token: published.owner_token });
    expect(res.status).toBe(204);
    const reads = await Promise.all(Array.from({ length: 100 }, () => call(`/v1/handoffs/${published.id}`)));
    expect(reads.filter((r) => r.status === 200)).toHaveLength(0);
    expect(new Set(await Promise.all(reads.map(errorCode)))).toEqual(new Set(["revoked"]));
    const meta = await call(`/v1/handoffs/${published.id}/meta`);
    expect(await errorCode(meta)).toBe("revoked");
    const { env } = await import("cloudflare:workers");
    expect(await env.BODIES.head(`v1/bodies/${published.id}`)).toBeNull();
  });

  it("revoke racing reads: no read succeeds after the 204", async () => {
    const published = await publish("x");
    const revoke = call(`/v1/handoffs/${published.id}`, { method: "DELETE", token: published.owner_token });
    const during = Array.from({ length: 30 }, () => call(`/v1/handoffs/${published.id}`));
    expect((await revoke).status).toBe(204);
    await Promise.all(during);
    const after = await Promise.all(Array.from({ length: 30 }, () => call(`/v1/handoffs/${published.id}`).then((r) => r.status)));
    expect(after.every((s) => s === 410)).toBe(true);
  });

  it("a second revoke by the owner is still 204", async () => {
    const published = await publish("x");
    for (let i = 0; i < 2; i++) {
      expect((await call(`/v1/handoffs/${published.id}`, { method: "DELETE", token: published.owner_token })).status).toBe(204);
    }
  });
});
