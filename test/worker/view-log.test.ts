import { describe, expect, it } from "vitest";
import { viewLogSchema } from "../../shared/api/handoff.js";
import { newToken, sha256Base64Url } from "../../shared/ids/tokens.js";
import { VIEW_LOG_LIMIT } from "../../worker/durable/access-state.js";
import { TEST_READ_HASH, accessStub, call, createTeam, errorCode, publish } from "./helpers.js";

// The owner's view log: each counted view's time (to the minute) kept in the access state by the
// same synchronous read-modify-write that counts it, shown to the owner token only.

const MINUTE = 60_000;
const logOf = async (id: string, ownerToken: string) => viewLogSchema.parse(await (await call(`/v1/handoffs/${id}/views`, { token: ownerToken })).json());

describe("the view log", () => {
  it("records each counted view in order, to the minute, and no refused read", async () => {
    const published = await publish("body", "max_views=5");
    const base = Math.floor(Date.now() / MINUTE) * MINUTE + 10 * MINUTE;
    const stub = accessStub(published.id);
    for (const offset of [0, 3 * MINUTE + 5_000, 7 * MINUTE + 59_999]) expect((await stub.consumeViewAt(null, TEST_READ_HASH, base + offset)).ok).toBe(true);
    // A read with the wrong key spends nothing and logs nothing.
    expect((await stub.consumeViewAt(null, await sha256Base64Url("wrong"), base + 8 * MINUTE)).ok).toBe(false);
    const log = await logOf(published.id, published.owner_token);
    expect(log).toMatchObject({ id: published.id, state: "active", views_used: 3, max_views: 5, views_left: 2, revoked_at: null });
    expect(log.view_times).toEqual([base, base + 3 * MINUTE, base + 7 * MINUTE].map((t) => new Date(t).toISOString()));
  });

  it(`keeps the last ${VIEW_LOG_LIMIT} times, and still answers after the link is revoked or used up`, async () => {
    const published = await publish("body", "max_views=25");
    const base = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE;
    const stub = accessStub(published.id);
    for (let i = 0; i < 25; i++) await stub.consumeViewAt(null, TEST_READ_HASH, base + i * MINUTE);
    const log = await logOf(published.id, published.owner_token);
    expect(log.state).toBe("exhausted");
    expect(log.views_left).toBe(0);
    expect(log.view_times).toHaveLength(VIEW_LOG_LIMIT);
    expect(log.view_times[0]).toBe(new Date(base + 5 * MINUTE).toISOString());

    const other = await publish("body");
    expect((await call(`/v1/handoffs/${other.id}`, { method: "DELETE", token: other.owner_token })).status).toBe(204);
    expect(await logOf(other.id, other.owner_token)).toMatchObject({ state: "revoked", views_used: 0, view_times: [] });
  });

  it("answers the owner token only: 401 without one, 403 for another owner's, a team token or a publish token", async () => {
    const team = await createTeam("view-log");
    const published = await publish("body", "scope=team", { token: team });
    expect((await call(`/v1/handoffs/${published.id}/views`)).status).toBe(401);
    expect((await call(`/v1/handoffs/${published.id}/views`, { token: team })).status).toBe(401);
    const stranger = await call(`/v1/handoffs/${published.id}/views`, { token: newToken("owner") });
    expect(stranger.status).toBe(403);
    expect(await errorCode(stranger)).toBe("forbidden");
    expect((await call(`/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA/views`, { token: published.owner_token })).status).toBe(404);
    // Reading the log counts nothing.
    expect((await logOf(published.id, published.owner_token)).views_used).toBe(0);
  });
});
