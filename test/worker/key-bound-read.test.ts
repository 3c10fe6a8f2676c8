// Key-bound reads: the body, and so a view, needs the read token derived from the share key; the
// id alone (from a log, a proxy, a team listing) spends nothing. `/meta` stays id-only and says
// no more than before.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handoffMetaSchema } from "../../shared/api/handoff.js";
import { openHandoff, sealHandoff } from "../../shared/crypto/envelope.js";
import { newShareKey } from "../../shared/crypto/key.js";
import { deriveReadToken } from "../../shared/crypto/read-token.js";
import { newHandoffId, sha256Base64Url } from "../../shared/ids/tokens.js";
import { ACCESS_STATE_KEY, ACCESS_STATE_VERSION } from "../../worker/durable/access-state.js";
import { putBody } from "../../worker/storage/bodies-r2.js";
import { accessStub, call, errorCode, publish } from "./helpers.js";

async function publishSealed(query: string) {
  const { ciphertext, key } = await sealHandoff(new TextEncoder().encode("# secret plan"), {
    format: "ce-handoff/v1",
    file_name: "plan.md",
    created_at: "2026-11-30T09:00:00Z",
  });
  const readToken = await deriveReadToken(key);
  const published = await publish(ciphertext, query, { readToken });
  return { ...published, key, readToken };
}

const viewsUsed = async (id: string) => handoffMetaSchema.parse(await (await call(`/v1/handoffs/${id}/meta`, { readToken: null })).json()).views_used;

describe("reading a body needs proof of the share key", () => {
  it("a 1-view link cannot be spent with the id alone, a wrong or a malformed token; its own token opens it once", async () => {
    const link = await publishSealed("max_views=1");
    const otherToken = await deriveReadToken(newShareKey());
    const refusals: Array<[string, string | null]> = [
      ["no token", null],
      ["another key's token", otherToken],
      ["a malformed token", "not-a-read-token"],
      ["the key itself", link.key],
    ];
    for (const [label, readToken] of refusals) {
      const res = await call(`/v1/handoffs/${link.id}`, { readToken });
      expect(res.status, label).toBe(422);
      expect(await errorCode(res), label).toBe("decrypt_failed");
    }
    expect(await viewsUsed(link.id)).toBe(0);

    const res = await call(`/v1/handoffs/${link.id}`, { readToken: link.readToken });
    expect(res.status).toBe(200);
    const opened = await openHandoff(new Uint8Array(await res.arrayBuffer()), link.key);
    expect(new TextDecoder().decode(opened.plaintext)).toBe("# secret plan");
    const again = await call(`/v1/handoffs/${link.id}`, { readToken: link.readToken });
    expect(again.status).toBe(410);
    expect(await errorCode(again)).toBe("exhausted");
  });

  it("says which: no token sent, or a token that does not match", async () => {
    const link = await publishSealed("");
    const none = await (await call(`/v1/handoffs/${link.id}`, { readToken: null })).json();
    expect(JSON.stringify(none)).toMatch(/needs proof of its key/);
    const wrong = await (await call(`/v1/handoffs/${link.id}`, { readToken: await deriveReadToken(newShareKey()) })).json();
    expect(JSON.stringify(wrong)).toMatch(/does not match/);
  });

  it("100 concurrent forged reads and one real one: the real one gets the only view", async () => {
    const link = await publishSealed("max_views=1");
    const forged = Array.from({ length: 100 }, async () => call(`/v1/handoffs/${link.id}`, { readToken: await deriveReadToken(newShareKey()) }));
    const results = await Promise.all([...forged, call(`/v1/handoffs/${link.id}`, { readToken: link.readToken })]);
    expect(results.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
    expect(results.at(-1)!.status).toBe(200);
  });

  it("/meta stays id-only and answers exactly the fields it did before", async () => {
    const link = await publishSealed("max_views=3");
    const [bare, withToken] = await Promise.all([
      call(`/v1/handoffs/${link.id}/meta`, { readToken: null }).then((r) => r.json()),
      call(`/v1/handoffs/${link.id}/meta`, { readToken: link.readToken }).then((r) => r.json()),
    ]);
    expect(bare).toEqual(withToken);
    expect(Object.keys(handoffMetaSchema.parse(bare)).sort()).toEqual(["created_at", "expires_at", "id", "max_views", "scope", "size", "views_left", "views_used"].sort());
    expect(JSON.stringify(bare)).not.toContain(await sha256Base64Url(link.readToken));
  });
});

describe("publishing registers the read token", () => {
  it.each([
    ["without the header", null],
    ["with a malformed token", "short"],
  ])("a publish %s is refused (400 invalid_option), nothing stored readable by id", async (_label, readToken) => {
    const res = await call("/v1/handoffs", { method: "POST", body: "x", readToken });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; details?: { option?: string } } };
    expect(body.error.code).toBe("invalid_option");
    expect(body.error.details?.option).toBe("Handoff-Read-Token");
  });

  it("stores only the token's SHA-256 (state v2 and later), never the token", async () => {
    const link = await publishSealed("");
    const state = await runInDurableObject(accessStub(link.id), async (_instance, ctx) => ctx.storage.kv.get<Record<string, unknown>>(ACCESS_STATE_KEY));
    expect(state).toMatchObject({ v: ACCESS_STATE_VERSION, read_hash: await sha256Base64Url(link.readToken) });
    expect(JSON.stringify(state)).not.toContain(link.readToken);
  });
});

describe("a link published before key-bound reads (access state v1)", () => {
  it("stays readable by id until it expires, as its version promised", async () => {
    const id = newHandoffId();
    const now = Date.now();
    const v1 = { v: 1, id, scope: "link", team: null, owner_hash: "x", size: 2, created_at: now, expires_at: now + 60_000, max_views: 1, views_used: 0, revoked_at: null, purged_at: null };
    await runInDurableObject(accessStub(id), async (_instance, ctx) => ctx.storage.kv.put(ACCESS_STATE_KEY, v1));
    await putBody(env.BODIES, id, new TextEncoder().encode("v1"), v1.expires_at);
    const res = await call(`/v1/handoffs/${id}`, { readToken: null });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("v1");
  });
});
