import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { teamListingSchema } from "../../shared/api/handoff.js";
import { encodeBase64Url } from "../../shared/ids/base64url.js";
import { newShareKey } from "../../shared/crypto/key.js";
import { sealTeamCard } from "../../shared/crypto/team-card.js";
import { newTeamKey } from "../../shared/crypto/team-key.js";
import { MAX_TEAM_CARD_CHARS, TEAM_CARD_OVERHEAD_BYTES } from "../../shared/crypto/team-card-shape.js";
import { newHandoffId } from "../../shared/ids/tokens.js";
import { call, createTeam, errorCode, publish, textOf } from "./helpers.js";

// Sealed team cards on the server: stored opaquely with the team entry, returned in the listing,
// checked for shape and size only (the server has no team key), gone with the entry.

const teamKey = await newTeamKey();
const sealFor = (id: string) => sealTeamCard({ id, shareKey: newShareKey(), card: { title: "t", created_at: "2026-05-01T10:00:00Z" } }, teamKey);
const listing = async (token: string) => teamListingSchema.parse(await (await call("/v1/team/handoffs", { token })).json());
const teamStub = (team: string) => env.REGISTRY.get(env.REGISTRY.idFromName(`team:${team}`));

describe("team cards", () => {
  it("a team publish with a proposed id and a card lists the card under that id; revoking drops it", async () => {
    const token = await createTeam("cards-ok");
    const id = newHandoffId();
    const card = await sealFor(id);
    const published = await publish("ciphertext", "scope=team", { token, headers: { "Handoff-Id": id, "Handoff-Team-Card": card } });
    expect(published.id).toBe(id);
    const plain = await publish("ciphertext", "scope=team", { token });
    expect((await listing(token)).handoffs.map((h) => [h.id, h.card]).sort()).toEqual(
      [
        [id, card],
        [plain.id, null],
      ].sort(),
    );

    expect((await call(`/v1/handoffs/${id}`, { method: "DELETE", token: published.owner_token })).status).toBe(204);
    expect((await listing(token)).handoffs.map((h) => h.id)).toEqual([plain.id]);
    expect(await teamStub("cards-ok").cards(Date.now())).toEqual({});
  });

  const valid = async () => sealFor(newHandoffId());
  it.each([
    ["not a card", async () => "htc1.short", /not 'htc1\.<key id>\.<base64url>'/],
    ["a card of the wrong size", async () => `htc1.${teamKey.id}.${encodeBase64Url(new Uint8Array(TEAM_CARD_OVERHEAD_BYTES + 10))}`, /not a padded card's size/],
    ["an oversize card", async () => `htc1.${teamKey.id}.${"A".repeat(MAX_TEAM_CARD_CHARS)}`, /more than the 5538 allowed/],
    ["a newer card version", async () => (await valid()).replace(/^htc1/, "htc2"), /not 'htc1/],
  ])("%s is refused with 400 and nothing is stored", async (_label, make, message) => {
    const token = await createTeam(`cards-bad-${Math.random().toString(36).slice(2, 8)}`);
    const id = newHandoffId();
    const res = await call("/v1/handoffs?scope=team", { method: "POST", body: "ciphertext", token, headers: { "Handoff-Id": id, "Handoff-Team-Card": await make() } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; details: { option: string } } };
    expect(body.error).toMatchObject({ code: "invalid_option", details: { option: "Handoff-Team-Card" } });
    expect(body.error.message).toMatch(message);
    expect((await listing(token)).handoffs).toEqual([]);
    // The proposed id was never claimed: it reads as unknown.
    expect((await call(`/v1/handoffs/${id}/meta`, { token })).status).toBe(404);
  });

  it("a card on a link publish, a malformed proposed id and a taken one are 400 invalid_option", async () => {
    const token = await createTeam("cards-options");
    const linkCard = await call("/v1/handoffs", { method: "POST", body: "x", headers: { "Handoff-Team-Card": await valid() } });
    expect(linkCard.status).toBe(400);
    expect(((await linkCard.json()) as { error: { message: string } }).error.message).toMatch(/goes with scope=team only/);

    const malformed = await call("/v1/handoffs", { method: "POST", body: "x", headers: { "Handoff-Id": "../etc" } });
    expect(malformed.status).toBe(400);
    expect(await errorCode(malformed)).toBe("invalid_option");

    const id = newHandoffId();
    await publish("first", "scope=team", { token, headers: { "Handoff-Id": id, "Handoff-Team-Card": await sealFor(id) } });
    const taken = await call("/v1/handoffs?scope=team", { method: "POST", body: "second", token, headers: { "Handoff-Id": id, "Handoff-Team-Card": await sealFor(id) } });
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as { error: { message: string } }).error.message).toMatch(/is taken/);
    // The first entry and its card are untouched.
    expect((await listing(token)).handoffs.map((h) => h.id)).toEqual([id]);
    expect(await textOf(await call(`/v1/handoffs/${id}`, { token }))).toBe("first");
  });

  it("the team's object forgets cards past their expiry when it lists them", async () => {
    const stub = teamStub("cards-expiry");
    await stub.putCard("AAAAAAAAAAAAAAAAAAAAAA", "c1", 1_000);
    await stub.putCard("BBBBBBBBBBBBBBBBBBBBBA", "c2", 5_000);
    expect(await stub.cards(2_000)).toEqual({ BBBBBBBBBBBBBBBBBBBBBA: "c2" });
    expect(await stub.cards(0)).toEqual({ BBBBBBBBBBBBBBBBBBBBBA: "c2" });
  });
});
