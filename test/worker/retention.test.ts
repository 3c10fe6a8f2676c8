import {
  createExecutionContext,
  createScheduledController,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issuedTokenSchema } from "../../shared/api/admin.js";
import { sha256Base64Url } from "../../shared/tokens.js";
import { ACCESS_STATE_KEY, type AccessState } from "../../worker/durable/access-state.js";
import worker from "../../worker/index.js";
import { putBody } from "../../worker/storage/bodies-r2.js";
import { putTeamEntry, teamEntryKey } from "../../worker/storage/meta-kv.js";
import { ADMIN_TOKEN, accessStub, call, createTeam, errorCode, publish } from "./helpers.js";

const bodyExists = async (id: string) => (await env.BODIES.head(`v1/bodies/${id}`)) !== null;

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

  it("deletes the R2 body and the KV team entry at expiry; reads then say expired", async () => {
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

describe("the scheduled sweep", () => {
  it("deletes expired bodies and team entries left behind, and keeps live ones", async () => {
    const now = Date.now();
    await putBody(env.BODIES, "sweepExpiredBodyAAAAAA", new Uint8Array([1]), now - 1000);
    await putBody(env.BODIES, "sweepLiveBodyAAAAAAAAA", new Uint8Array([2]), now + 3_600_000);
    const meta = (expiresAt: number) => ({ v: 1 as const, size: 1, created_at: now - 5000, expires_at: expiresAt, max_views: null });
    await putTeamEntry(env.META, "sweep", "sweepExpiredBodyAAAAAA", meta(now - 1000));
    await putTeamEntry(env.META, "sweep", "sweepLiveBodyAAAAAAAAA", meta(now + 3_600_000));

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 * * * *" }), { ...env }, ctx);
    await waitOnExecutionContext(ctx);

    expect(await bodyExists("sweepExpiredBodyAAAAAA")).toBe(false);
    expect(await bodyExists("sweepLiveBodyAAAAAAAAA")).toBe(true);
    expect(await env.META.get(teamEntryKey("sweep", "sweepExpiredBodyAAAAAA"))).toBeNull();
    expect(await env.META.get(teamEntryKey("sweep", "sweepLiveBodyAAAAAAAAA"))).not.toBeNull();
  });
});

describe("stored state", () => {
  it("holds no raw token anywhere in R2, KV or Durable Object storage, only hashes", async () => {
    const teamToken = await createTeam("dump");
    const publishToken = issuedTokenSchema.parse(await (await call("/v1/admin/publish-tokens", { method: "POST", token: ADMIN_TOKEN })).json()).token;
    const published = [
      await publish("a", "scope=team", { token: teamToken }),
      await publish("b", "", { token: publishToken }),
      await publish("c", "max_views=1"),
    ];
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
