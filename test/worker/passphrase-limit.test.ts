// Wrong passphrases limited per link, whoever sends them: after N the link slows down (each next
// try waits before it is judged, the right passphrase included), after M it locks until its owner
// resets it or revokes it. No view is spent on any of it. The Durable Object decides each try in
// one synchronous read-modify-write, so concurrent guesses are counted exactly.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handoffMetaSchema, viewLogSchema } from "../../shared/api/handoff.js";
import { errorBodySchema } from "../../shared/api/error.js";
import { LINK_TOKEN_HEADER, PASSPHRASE_HEADER } from "../../shared/crypto/read-token.js";
import { encodeBase64Url } from "../../shared/ids/base64url.js";
import { newToken, sha256Base64Url } from "../../shared/ids/tokens.js";
import { ACCESS_STATE_KEY, ACCESS_STATE_VERSION, type AccessDecision, PASSPHRASE_LOCK_AFTER, PASSPHRASE_SLOW_AFTER, passphraseWaitMs } from "../../worker/durable/access-state.js";
import { TEST_READ_HASH, accessStub, call, publish } from "./helpers.js";

const WRONG_TOKEN = "W".repeat(43);
const WRONG_HASH = await sha256Base64Url(WRONG_TOKEN);

const publishPassphrase = (query = "max_views=3") => publish("ciphertext", query, { headers: { [PASSPHRASE_HEADER]: "v2" } });
const viewsUsed = async (id: string) => handoffMetaSchema.parse(await (await call(`/v1/handoffs/${id}/meta`)).json()).views_used;
const reasonOf = (decision: AccessDecision) => (decision.ok ? "ok" : decision.reason);
const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

/** Wrong tries on `id`, each at the first moment it is judged, until `count` were counted; returns the time after the last. */
async function wrongTries(id: string, count: number, from: number): Promise<number> {
  const stub = accessStub(id);
  let at = from;
  for (let i = 1; i <= count; i++) {
    const decision = await stub.consumeViewAt(null, WRONG_HASH, at);
    expect(decision.ok, `try ${i}`).toBe(false);
    at += passphraseWaitMs(i);
  }
  return at;
}

describe("wrong passphrases, per link", () => {
  it(`after ${PASSPHRASE_SLOW_AFTER} wrong ones each try waits, the right one included; a judged right one opens it; no view spent on any refusal`, async () => {
    const link = await publishPassphrase();
    const stub = accessStub(link.id);
    const base = Date.now();
    for (let i = 1; i < PASSPHRASE_SLOW_AFTER; i++) {
      const decision = await stub.consumeViewAt(null, WRONG_HASH, base);
      expect(decision).toMatchObject({ ok: false, reason: "passphrase_mismatch", limit: { wrong: i, judge_after: null, locked_at: null } });
    }
    // The N-th starts the wait.
    expect(await stub.consumeViewAt(null, WRONG_HASH, base)).toMatchObject({ reason: "passphrase_mismatch", limit: { wrong: PASSPHRASE_SLOW_AFTER, judge_after: base + 1_000 } });
    // During the wait nothing is judged: the right passphrase is answered like a wrong one would be, and counts nothing.
    expect(await stub.consumeViewAt(null, TEST_READ_HASH, base + 999)).toMatchObject({ ok: false, reason: "passphrase_slowed", limit: { wrong: PASSPHRASE_SLOW_AFTER } });
    expect(await stub.consumeViewAt(null, WRONG_HASH, base + 500)).toMatchObject({ reason: "passphrase_slowed", limit: { wrong: PASSPHRASE_SLOW_AFTER } });
    expect(await viewsUsed(link.id)).toBe(0);
    // Once the wait is over the right one is judged, and opens it.
    expect(await stub.consumeViewAt(null, TEST_READ_HASH, base + 1_000)).toMatchObject({ ok: true, view: { views_used: 1 } });
    // A right one does not wipe the count: the next wrong one waits twice as long.
    expect(await stub.consumeViewAt(null, WRONG_HASH, base + 1_000)).toMatchObject({ limit: { wrong: PASSPHRASE_SLOW_AFTER + 1, judge_after: base + 3_000 } });
    expect(await viewsUsed(link.id)).toBe(1);
  });

  it(`${PASSPHRASE_LOCK_AFTER} wrong ones lock it: nothing is judged, the right passphrase neither, until the owner resets it`, async () => {
    const link = await publishPassphrase();
    const stub = accessStub(link.id);
    const base = Date.now() - 3_600_000;
    const after = await wrongTries(link.id, PASSPHRASE_LOCK_AFTER - 1, base);
    expect(await stub.consumeViewAt(null, WRONG_HASH, after)).toMatchObject({ reason: "passphrase_locked", limit: { wrong: PASSPHRASE_LOCK_AFTER, locked_at: after, judge_after: null } });
    // Locked, however long one waits, and whatever is sent; nothing more is counted.
    expect(reasonOf(await stub.consumeViewAt(null, TEST_READ_HASH, after + 86_400_000))).toBe("passphrase_locked");
    const res = await call(`/v1/handoffs/${link.id}`);
    expect(res.status).toBe(423);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: "locked", details: { passphrase_limit: "locked", wrong_passphrases: PASSPHRASE_LOCK_AFTER, lock_after: PASSPHRASE_LOCK_AFTER } });
    expect(error.hint).toMatch(/handoff published --unlock/);
    expect(await viewsUsed(link.id)).toBe(0);

    // The owner sees it, and resets it: the right passphrase is judged at once again.
    const log = viewLogSchema.parse(await (await call(`/v1/handoffs/${link.id}/views`, { token: link.owner_token })).json());
    expect(log.passphrase).toMatchObject({ wrong_passphrases: PASSPHRASE_LOCK_AFTER, locked_at: new Date(after).toISOString() });
    const reset = await call(`/v1/handoffs/${link.id}/unlock`, { method: "POST", token: link.owner_token });
    expect(reset.status).toBe(200);
    expect(viewLogSchema.parse(await reset.json()).passphrase).toEqual({
      wrong_passphrases: 0,
      slow_after: PASSPHRASE_SLOW_AFTER,
      lock_after: PASSPHRASE_LOCK_AFTER,
      judge_after: null,
      locked_at: null,
    });
    const read = await call(`/v1/handoffs/${link.id}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toBe("ciphertext");
  });

  it("over HTTP: a slowed link answers 429 with Retry-After and says why; a locked one can still be revoked", async () => {
    const link = await publishPassphrase();
    // The first N-1 wrong tries, long ago: the N-th, now, starts a wait that the next try meets.
    await wrongTries(link.id, PASSPHRASE_SLOW_AFTER - 1, Date.now() - 3_600_000);
    const wrong = await call(`/v1/handoffs/${link.id}`, { readToken: WRONG_TOKEN });
    expect(wrong.status).toBe(422);
    expect(await errorOf(wrong)).toMatchObject({ code: "decrypt_failed", details: { passphrase: true, wrong_passphrases: PASSPHRASE_SLOW_AFTER } });
    const slowed = await call(`/v1/handoffs/${link.id}`);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const error = await errorOf(slowed);
    expect(error).toMatchObject({ code: "rate_limited", details: { passphrase_limit: "slowed", wrong_passphrases: PASSPHRASE_SLOW_AFTER } });
    expect(error.message).toMatch(/not judged, and no view was spent/);
    expect(await viewsUsed(link.id)).toBe(0);

    const locked = await publishPassphrase();
    await wrongTries(locked.id, PASSPHRASE_LOCK_AFTER, Date.now() - 3_600_000);
    expect((await call(`/v1/handoffs/${locked.id}`, { method: "DELETE", token: locked.owner_token })).status).toBe(204);
    expect((await call(`/v1/handoffs/${locked.id}`)).status).toBe(410);
  });

  it("only the owner resets: 401 without a token, 403 with another link's; the reset counts nothing", async () => {
    const link = await publishPassphrase();
    await wrongTries(link.id, 3, Date.now());
    expect((await call(`/v1/handoffs/${link.id}/unlock`, { method: "POST" })).status).toBe(401);
    expect((await call(`/v1/handoffs/${link.id}/unlock`, { method: "POST", token: newToken("owner") })).status).toBe(403);
    expect((await call(`/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA/unlock`, { method: "POST", token: link.owner_token })).status).toBe(404);
    const log = viewLogSchema.parse(await (await call(`/v1/handoffs/${link.id}/views`, { token: link.owner_token })).json());
    expect(log.passphrase?.wrong_passphrases).toBe(3);
    expect(log.views_used).toBe(0);
  });

  it("30 concurrent wrong tries: exactly N are judged and counted, the rest wait; none spends a view", async () => {
    const link = await publishPassphrase();
    const stub = accessStub(link.id);
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 30 }, () => stub.consumeViewAt(null, WRONG_HASH, now)));
    const reasons = decisions.map(reasonOf);
    expect(reasons.filter((r) => r === "passphrase_mismatch")).toHaveLength(PASSPHRASE_SLOW_AFTER);
    expect(reasons.filter((r) => r === "passphrase_slowed")).toHaveLength(30 - PASSPHRASE_SLOW_AFTER);
    const state = await runInDurableObject(stub, async (_instance, ctx) => ctx.storage.kv.get<Record<string, unknown>>(ACCESS_STATE_KEY));
    expect(state).toMatchObject({ v: ACCESS_STATE_VERSION, wrong_passphrases: PASSPHRASE_SLOW_AFTER, views_used: 0 });
  });

  it("the link alone (a reader's first try, before it asks for the passphrase) is told so and never counted, even past N", async () => {
    const linkToken = encodeBase64Url(new Uint8Array(32).fill(9));
    const link = await publish("ciphertext", "", { headers: { [PASSPHRASE_HEADER]: "v2", [LINK_TOKEN_HEADER]: linkToken } });
    const stub = accessStub(link.id);
    const linkHash = await sha256Base64Url(linkToken);
    const now = Date.now();
    for (let i = 0; i < PASSPHRASE_SLOW_AFTER + 2; i++) expect(await stub.consumeViewAt(null, linkHash, now)).toMatchObject({ reason: "passphrase_missing", limit: { wrong: 0 } });
    const res = await call(`/v1/handoffs/${link.id}`, { readToken: linkToken });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: "decrypt_failed", details: { passphrase: true, wrong_passphrases: 0 } });
    expect(error.message).toMatch(/none was given: no view was spent, and it does not count as a wrong passphrase/);
    expect(reasonOf(await stub.consumeViewAt(null, TEST_READ_HASH, now))).toBe("ok");
    // Only a passphrase link carries one.
    const refused = await call("/v1/handoffs", { method: "POST", body: "x", headers: { [LINK_TOKEN_HEADER]: linkToken } });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: "invalid_option", details: { option: LINK_TOKEN_HEADER } });
  });

  it("a link without a passphrase counts nothing: its key cannot be guessed, and a lock would only shut its readers out", async () => {
    const link = await publish("ciphertext", "max_views=1");
    const stub = accessStub(link.id);
    const now = Date.now();
    for (let i = 0; i < PASSPHRASE_LOCK_AFTER + 5; i++) expect(reasonOf(await stub.consumeViewAt(null, WRONG_HASH, now))).toBe("key_mismatch");
    expect(reasonOf(await stub.consumeViewAt(null, TEST_READ_HASH, now))).toBe("ok");
    expect((await call(`/v1/handoffs/${link.id}/views`, { token: link.owner_token }).then((r) => r.json())) as object).not.toHaveProperty("passphrase");
  });

  it("a passphrase link stored before the limit (state v3) reads as no wrong passphrase yet, and is counted from there", async () => {
    const link = await publishPassphrase();
    const stub = accessStub(link.id);
    await runInDurableObject(stub, async (_instance, ctx) => {
      const { wrong_passphrases: _w, judge_after: _j, locked_at: _l, ...v3 } = ctx.storage.kv.get<Record<string, unknown>>(ACCESS_STATE_KEY)!;
      ctx.storage.kv.put(ACCESS_STATE_KEY, { ...v3, v: 3 });
    });
    const now = Date.now();
    expect(await stub.consumeViewAt(null, WRONG_HASH, now)).toMatchObject({ reason: "passphrase_mismatch", limit: { wrong: 1 } });
    const state = await runInDurableObject(stub, async (_instance, ctx) => ctx.storage.kv.get<Record<string, unknown>>(ACCESS_STATE_KEY));
    expect(state).toMatchObject({ v: ACCESS_STATE_VERSION, wrong_passphrases: 1, judge_after: null, locked_at: null });
    expect(reasonOf(await stub.consumeViewAt(null, TEST_READ_HASH, now))).toBe("ok");
  });
});
