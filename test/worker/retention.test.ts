import { createExecutionContext, createScheduledController, listDurableObjectIds, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issuedTokenSchema } from "../../shared/api/admin.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
import { ACCESS_STATE_KEY, type AccessState, RECLAIM_GRACE_MS } from "../../worker/durable/access-state.js";
import type { HandoffAccess } from "../../worker/durable/handoff-access.js";
import worker from "../../worker/index.js";
import { putBody } from "../../worker/storage/bodies-r2.js";
import { EXPIRY_PREFIX, expiryMarkerKey, putExpiryMarker } from "../../worker/storage/expiry-index.js";
import { putTeamEntry, teamEntryKey } from "../../worker/storage/meta-kv.js";
import { BACKSTOP_DELAY_MS, sweepExpired } from "../../worker/sweep.js";
import { countInside, countingEnv, Ledger } from "./binding-ledger.js";
import { ADMIN_TOKEN, accessStub, call, createTeam, errorCode, publish } from "./helpers.js";

const HOUR = 3_600_000;
const bodyExists = async (id: string) => (await env.BODIES.head(`v1/bodies/${id}`)) !== null;
const markerExists = async (id: string, expiresAt: number) => (await env.BODIES.head(expiryMarkerKey(id, expiresAt))) !== null;
/** Every key in the object's storage (the synchronous KV API lists them all). */
const storedKeys = (stub: DurableObjectStub) => runInDurableObject(stub, (_i, state) => [...state.storage.kv.list()].map(([key]) => key));

/** Moves a handoff's expiry into the past, as if its clock had run out. */
async function expireNow(id: string): Promise<void> {
  await runInDurableObject(accessStub(id), (_instance, state) => {
    const current = state.storage.kv.get<AccessState>(ACCESS_STATE_KEY)!;
    state.storage.kv.put(ACCESS_STATE_KEY, { ...current, expires_at: Date.now() - 1 });
  });
}

describe("the Durable Object's alarm", () => {
  it("is set at expiry on publish", async () => {
    const published = await publish("x", "expires_in=600");
    const alarm = await runInDurableObject(accessStub(published.id), (_i, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(published.expires_at));
  });

  it("deletes the R2 body and the KV team entry at expiry; reads then say expired (during the grace)", async () => {
    const token = await createTeam("alarm");
    const published = await publish("x", "scope=team&expires_in=600", { token });
    expect(await bodyExists(published.id)).toBe(true);
    expect(await env.META.get(teamEntryKey("alarm", published.id))).not.toBeNull();
    await expireNow(published.id);
    expect(await runDurableObjectAlarm(accessStub(published.id))).toBe(true);
    expect(await bodyExists(published.id)).toBe(false);
    expect(await env.META.get(teamEntryKey("alarm", published.id))).toBeNull();
    expect(await errorCode(await call(`/v1/handoffs/${published.id}`, { token }))).toBe("expired");
  });

  it("keeps a live body when it runs early, and re-arms itself for the expiry", async () => {
    const published = await publish("x", "expires_in=600");
    expect(await runDurableObjectAlarm(accessStub(published.id))).toBe(true);
    expect(await bodyExists(published.id)).toBe(true);
    const alarm = await runInDurableObject(accessStub(published.id), (_i, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(published.expires_at));
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
  });

  it("deletes the body shortly after the last allowed view", async () => {
    const published = await publish("x", "max_views=1&expires_in=600");
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
    const alarm = await runInDurableObject(accessStub(published.id), (_i, state) => state.storage.getAlarm());
    expect(alarm).toBeLessThan(Date.parse(published.expires_at));
    expect(await runDurableObjectAlarm(accessStub(published.id))).toBe(true);
    expect(await bodyExists(published.id)).toBe(false);
    expect(await errorCode(await call(`/v1/handoffs/${published.id}`))).toBe("exhausted");
  });
});

describe("full reclamation", () => {
  it("an expired team handoff leaves nothing: DO storage empty, body, team entry and expiry marker gone; then 404", async () => {
    const token = await createTeam("reclaim");
    const published = await publish("x", "scope=team&expires_in=600", { token });
    const expiresAt = Date.parse(published.expires_at);
    const stub = accessStub(published.id);
    expect(await bodyExists(published.id)).toBe(true);
    expect(await markerExists(published.id, expiresAt)).toBe(true);

    // At expiry: body and entry go, the state stays to answer 410 during the grace.
    await runInDurableObject(stub, (access: HandoffAccess) => access.alarmAt(expiresAt));
    expect(await bodyExists(published.id)).toBe(false);
    expect(await env.META.get(teamEntryKey("reclaim", published.id))).toBeNull();
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBe(expiresAt + RECLAIM_GRACE_MS);
    const late = await runInDurableObject(stub, (access: HandoffAccess) => access.peekAt("reclaim", expiresAt + RECLAIM_GRACE_MS - 1));
    expect(late.ok ? "ok" : late.reason).toBe("expired");

    // A moment before the grace ends nothing more goes; at its end everything does.
    await runInDurableObject(stub, (access: HandoffAccess) => access.alarmAt(expiresAt + RECLAIM_GRACE_MS - 1));
    expect(await storedKeys(stub)).toEqual(["state"]);
    await runInDurableObject(stub, (access: HandoffAccess) => access.alarmAt(expiresAt + RECLAIM_GRACE_MS));
    expect(await storedKeys(stub)).toEqual([]);
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
    expect(await markerExists(published.id, expiresAt)).toBe(false);
    expect(await errorCode(await call(`/v1/handoffs/${published.id}`, { token }))).toBe("not_found");
  });

  it("the real alarm does the same two steps on its own clock", async () => {
    const published = await publish("x", "max_views=1&expires_in=600");
    const stub = accessStub(published.id);
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await bodyExists(published.id)).toBe(false);
    expect(await errorCode(await call(`/v1/handoffs/${published.id}`))).toBe("exhausted");
    // Pretend the grace is over: the purge happened a grace ago, and the alarm is due.
    await runInDurableObject(stub, async (_i, state) => {
      const current = state.storage.kv.get<AccessState>(ACCESS_STATE_KEY)!;
      state.storage.kv.put(ACCESS_STATE_KEY, { ...current, purged_at: Date.now() - RECLAIM_GRACE_MS });
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await storedKeys(stub)).toEqual([]);
    expect(await markerExists(published.id, Date.parse(published.expires_at))).toBe(false);
  });

  it("a revoked link is reclaimed a grace after the revoke, its expiry notwithstanding", async () => {
    const published = await publish("x", "expires_in=86400");
    const stub = accessStub(published.id);
    const before = Date.now();
    expect((await call(`/v1/handoffs/${published.id}`, { method: "DELETE", token: published.owner_token })).status).toBe(204);
    const alarm = (await runInDurableObject(stub, (_i, state) => state.storage.getAlarm()))!;
    expect(alarm).toBeGreaterThanOrEqual(before + RECLAIM_GRACE_MS);
    expect(alarm).toBeLessThan(Date.parse(published.expires_at) + RECLAIM_GRACE_MS);
    await runInDurableObject(stub, (access: HandoffAccess) => access.alarmAt(alarm));
    expect(await storedKeys(stub)).toEqual([]);
    expect(await markerExists(published.id, Date.parse(published.expires_at))).toBe(false);
  });
});

describe("the scheduled backstop", () => {
  it("reclaims only handoffs whose alarm was lost, touching nothing live or within the grace", async () => {
    // Four handoffs expiring in 10 min, 20 min, 2 h and 3 days; the alarms of all four are "lost".
    const token = await createTeam("backstop");
    const handoffs = [
      await publish("a", "scope=team&expires_in=600", { token }),
      await publish("b", "expires_in=1200"),
      await publish("c", "expires_in=7200"),
      await publish("d", "scope=team&expires_in=259200", { token }),
    ];
    for (const h of handoffs) await runInDurableObject(accessStub(h.id), (_i, state) => state.storage.deleteAlarm());
    const expiries = handoffs.map((h) => Date.parse(h.expires_at));
    // The clock driven forward: past the first two's hour, grace and delay; before the others'.
    const now = Math.ceil((expiries[1]! + 1) / HOUR) * HOUR + RECLAIM_GRACE_MS + BACKSTOP_DELAY_MS;
    const overdue = handoffs.filter((_, i) => Math.floor(expiries[i]! / HOUR) * HOUR + HOUR + RECLAIM_GRACE_MS + BACKSTOP_DELAY_MS <= now);
    expect(overdue.map((h) => h.id)).toEqual(handoffs.slice(0, 2).map((h) => h.id));

    // Every marker in the index (other tests' handoffs included), split by whether its hour is due.
    const index = (await env.BODIES.list({ prefix: EXPIRY_PREFIX })).objects.map((o) => o.key.slice(EXPIRY_PREFIX.length).split("/"));
    const isDue = ([hour]: string[]) => Date.parse(`${hour}:00:00.000Z`) + HOUR + RECLAIM_GRACE_MS + BACKSTOP_DELAY_MS <= now;
    const dueIds = index.filter(isDue).map(([, id]) => id!);
    const liveIds = index.filter((entry) => !isDue(entry)).map(([, id]) => id!);
    expect(dueIds).toEqual(expect.arrayContaining(overdue.map((h) => h.id)));
    expect(liveIds).toEqual(expect.arrayContaining(handoffs.slice(2).map((h) => h.id)));

    const ledger = new Ledger();
    for (const h of handoffs) await countInside(accessStub(h.id), ledger);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 * * * *" }), countingEnv({ ...env }, ledger), ctx);
    await waitOnExecutionContext(ctx);

    for (const h of overdue) {
      expect(await storedKeys(accessStub(h.id))).toEqual([]);
      expect(await bodyExists(h.id)).toBe(false);
      expect(await markerExists(h.id, Date.parse(h.expires_at))).toBe(false);
    }
    expect(await env.META.get(teamEntryKey("backstop", handoffs[0]!.id))).toBeNull();
    for (const h of handoffs.slice(2)) {
      expect(await storedKeys(accessStub(h.id))).toEqual(["state"]);
      expect(await bodyExists(h.id)).toBe(true);
      expect(await markerExists(h.id, Date.parse(h.expires_at))).toBe(true);
    }
    expect(await env.META.get(teamEntryKey("backstop", handoffs[3]!.id))).not.toBeNull();
    // Touched: one listing of the index, then only the overdue ids (no live id appears anywhere).
    expect(ledger.counts.r2_class_a).toBe(1);
    expect(ledger.counts.kv_lists).toBe(0);
    const reclaimCalls = ledger.touched.filter((t) => t.startsWith("do_requests access."));
    // A reclaimed team entry's sealed card goes too: one call to its team's object, nothing else there.
    const registryCalls = ledger.touched.filter((t) => t.startsWith("do_requests registry."));
    expect(registryCalls).toContain("do_requests registry.dropCard(team:backstop)");
    expect(registryCalls.every((t) => t.startsWith("do_requests registry.dropCard(team:"))).toBe(true);
    expect(ledger.touched.filter((t) => t.startsWith("do_requests ") && !t.startsWith("do_requests access.") && !t.startsWith("do_requests registry."))).toEqual([]);
    expect(reclaimCalls.sort()).toEqual(dueIds.map((id) => `do_requests access.reclaim(${id})`).sort());
    const touchedText = ledger.touched.join("\n");
    for (const id of liveIds) expect(touchedText).not.toContain(id);
  });

  it("removes an orphaned marker (no object behind it) with its body and team entry", async () => {
    const expiresAt = Date.now() - 3 * RECLAIM_GRACE_MS;
    const id = "orphanMarkerAAAAAAAAAA";
    await putBody(env.BODIES, id, new Uint8Array([1]), expiresAt);
    await putExpiryMarker(env.BODIES, id, expiresAt, "orphans");
    await putTeamEntry(env.META, "orphans", id, { v: 1, size: 1, created_at: expiresAt - 1000, expires_at: expiresAt, max_views: null });
    const result = await sweepExpired({ ...env }, Date.now());
    expect(result.orphans).toBeGreaterThanOrEqual(1);
    expect(await bodyExists(id)).toBe(false);
    expect(await markerExists(id, expiresAt)).toBe(false);
    expect(await env.META.get(teamEntryKey("orphans", id))).toBeNull();
  });
});

describe("stored state", () => {
  it("holds no raw token anywhere in R2, KV or Durable Object storage, only hashes", async () => {
    const teamToken = await createTeam("dump");
    const publishToken = issuedTokenSchema.parse(await (await call("/v1/admin/publish-tokens", { method: "POST", token: ADMIN_TOKEN })).json()).token;
    const published = [await publish("a", "scope=team", { token: teamToken }), await publish("b", "", { token: publishToken }), await publish("c", "max_views=1")];
    await call(`/v1/handoffs/${published[2]!.id}`);
    await call(`/v1/handoffs/${published[1]!.id}`, { method: "DELETE", token: published[1]!.owner_token });

    const dump: unknown[] = [];
    const objects = await env.BODIES.list({ include: ["customMetadata", "httpMetadata"] });
    for (const object of objects.objects) dump.push(object.key, object.customMetadata, await (await env.BODIES.get(object.key))?.text());
    const keys = await env.META.list();
    for (const key of keys.keys) dump.push(key.name, key.metadata, await env.META.get(key.name));
    const kvOf = (_instance: unknown, state: DurableObjectState) => [...state.storage.kv.list()];
    for (const id of await listDurableObjectIds(env.ACCESS)) dump.push(await runInDurableObject(env.ACCESS.get(id), kvOf));
    for (const id of await listDurableObjectIds(env.REGISTRY)) dump.push(await runInDurableObject(env.REGISTRY.get(id), kvOf));
    const text = JSON.stringify(dump);
    const secrets = [teamToken, publishToken, ...published.map((p) => p.owner_token)];
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(4));
    }
    // The dump is real: it holds the hashes the server checks against.
    for (const secret of secrets) expect(text).toContain(await sha256Base64Url(secret));
  });
});
