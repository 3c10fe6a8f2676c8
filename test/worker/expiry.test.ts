import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HandoffAccess } from "../../worker/durable/handoff-access.js";
import { accessStub, call, errorCode, publish, sleep, TEST_READ_HASH } from "./helpers.js";

describe("expiry is honoured to the second", () => {
  it("with the clock injected: the last millisecond before expires_at reads, expires_at itself does not", async () => {
    const published = await publish("x", "expires_in=60");
    const expiresAt = Date.parse(published.expires_at);
    const decisions = await runInDurableObject(accessStub(published.id), async (access: HandoffAccess) => [
      await access.peekAt(null, expiresAt - 1),
      await access.consumeViewAt(null, TEST_READ_HASH, expiresAt - 1),
      await access.consumeViewAt(null, TEST_READ_HASH, expiresAt),
      await access.peekAt(null, expiresAt + 1000),
    ]);
    expect(decisions.map((d) => (d.ok ? "ok" : d.reason))).toEqual(["ok", "ok", "expired", "expired"]);
  });

  it("in real time: a 1-second link reads at once and is 410 expired one second later", async () => {
    const published = await publish("x", "expires_in=1");
    expect((await call(`/v1/handoffs/${published.id}/meta`)).status).toBe(200);
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
    await sleep(Math.max(0, Date.parse(published.expires_at) - Date.now()) + 20);
    for (const path of [`/v1/handoffs/${published.id}`, `/v1/handoffs/${published.id}/meta`]) {
      const res = await call(path);
      expect(res.status).toBe(410);
      expect(await errorCode(res)).toBe("expired");
    }
  });

  it("the owner can still revoke an expired link; reads then say revoked", async () => {
    const published = await publish("x", "expires_in=1");
    await sleep(Math.max(0, Date.parse(published.expires_at) - Date.now()) + 20);
    expect((await call(`/v1/handoffs/${published.id}`, { method: "DELETE", token: published.owner_token })).status).toBe(204);
    expect(await errorCode(await call(`/v1/handoffs/${published.id}`))).toBe("revoked");
  });
});
