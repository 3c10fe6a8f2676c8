import { describe, expect, it } from "vitest";
import { decodeBase64Url, encodeBase64Url } from "../../../shared/ids/base64url.js";
import { encodeInvite, parseInvite } from "../../../shared/team/invite.js";
import { newShareKey } from "../../../shared/crypto/key.js";
import { openTeamCard, sealTeamCard } from "../../../shared/crypto/team-card.js";
import { MAX_TEAM_CARD_CHARS, TEAM_CARD_OVERHEAD_BYTES, TEAM_CARD_PAD_BYTES, sealedCardProblem } from "../../../shared/crypto/team-card-shape.js";
import { checkTeamKey, newTeamKey, parseTeamKey, teamKeyId } from "../../../shared/crypto/team-key.js";
import { cardFromDocument } from "../../../shared/team/card-from-document.js";
import { newHandoffId, newToken } from "../../../shared/ids/tokens.js";

const card = { title: "Billing cutover", summary: "the migration is staged", keywords: ["billing"], created_at: "2026-05-01T10:00:00Z", publisher: "ana" };

describe("team keys", () => {
  it("a new key is 256 bits with the id derived from it", async () => {
    const key = await newTeamKey();
    expect(parseTeamKey(key.key).ok).toBe(true);
    expect(key.id).toHaveLength(12);
    expect(await teamKeyId(key.key)).toBe(key.id);
    expect((await newTeamKey()).id).not.toBe(key.id);
    expect(await checkTeamKey(key, "ring")).toBeUndefined();
  });

  it.each([
    ["42 characters", "A".repeat(42), /43 base64url characters \(256 bits\), got 42 characters/],
    ["44 characters", "A".repeat(44), /got 44 characters/],
    ["not base64url", `${"A".repeat(42)}+`, /characters outside base64url/],
    ["non-canonical", `${"A".repeat(42)}B`, /got 43 characters/],
  ])("a key of %s is refused without echoing it", (_label, key, message) => {
    const parsed = parseTeamKey(key);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.message).toMatch(message);
      expect(parsed.error.message).not.toContain(key);
    }
  });

  it("a ring entry whose id does not match its key is named", async () => {
    const [a, b] = [await newTeamKey(), await newTeamKey()];
    expect((await checkTeamKey({ id: a.id, key: b.key }, "the ring"))?.message).toMatch(`the ring: key ${a.id} does not match its id`);
  });
});

describe("sealed team cards", () => {
  it("open with the ring to the card and the share key; sealed sizes are padded classes", async () => {
    const key = await newTeamKey();
    const id = newHandoffId();
    const shareKey = newShareKey();
    const sealed = await sealTeamCard({ id, shareKey, card }, key);
    expect(sealed.startsWith(`htc1.${key.id}.`)).toBe(true);
    expect(sealedCardProblem(sealed)).toBeUndefined();
    expect(sealed).not.toContain("Billing");
    const bytes = decodeBase64Url(sealed.split(".")[2]!)!;
    expect((bytes.length - TEAM_CARD_OVERHEAD_BYTES) % TEAM_CARD_PAD_BYTES).toBe(0);
    // A title a few characters longer seals to the same size.
    const longer = await sealTeamCard({ id, shareKey, card: { ...card, title: "Billing cutover, again" } }, key);
    expect(longer.length).toBe(sealed.length);
    expect(await openTeamCard(sealed, id, [await newTeamKey(), key])).toEqual({
      state: "readable",
      key_id: key.id,
      card,
      share_key: shareKey,
      signature: { state: "unverified", reason: "no_signature", problem: "no signature" },
    });
  });

  it("a card moved to another entry, tampered, relabelled or sealed with an unknown key is refused, never thrown", async () => {
    const key = await newTeamKey();
    const other = await newTeamKey();
    const id = newHandoffId();
    const sealed = await sealTeamCard({ id, shareKey: newShareKey(), card }, key);
    const otherId = newHandoffId();
    expect(await openTeamCard(sealed, otherId, [key])).toMatchObject({ state: "unreadable", why: `the card was sealed for another entry (${id}), not this one` });

    const bytes = decodeBase64Url(sealed.split(".")[2]!)!;
    bytes[40] = (bytes[40] ?? 0) ^ 1;
    const tampered = `htc1.${key.id}.${encodeBase64Url(bytes)}`;
    expect(await openTeamCard(tampered, id, [key])).toMatchObject({ state: "unreadable", why: /does not authenticate under its team key: forged or damaged/ });

    // The key id is authenticated: the same bytes under another id do not open with that key.
    const relabelled = sealed.replace(key.id, other.id);
    expect(await openTeamCard(relabelled, id, [other, key])).toMatchObject({ state: "unreadable", why: /forged or damaged/ });

    expect(await openTeamCard(sealed, id, [other])).toEqual({ state: "unknown_key", key_id: key.id });
    expect(await openTeamCard("garbage", id, [key])).toMatchObject({ state: "unreadable", key_id: null });
  });

  it("the server's shape check refuses what cannot be a card", async () => {
    const key = await newTeamKey();
    const valid = await sealTeamCard({ id: newHandoffId(), shareKey: newShareKey(), card }, key);
    expect(sealedCardProblem(`htc2.${valid.slice(5)}`)).toMatch(/not 'htc1/);
    expect(sealedCardProblem(`${valid}AA`)).toBeDefined();
    expect(sealedCardProblem(`htc1.${key.id}.${encodeBase64Url(new Uint8Array(TEAM_CARD_OVERHEAD_BYTES + 100))}`)).toMatch(/not a padded card's size/);
    expect(sealedCardProblem(`htc1.${key.id}.${"A".repeat(MAX_TEAM_CARD_CHARS)}`)).toMatch(/more than the 5538 allowed/);
  });

  it("a card too large to seal is too_large, and a bad field names itself", async () => {
    const key = await newTeamKey();
    const huge = { ...card, summary: "\u0001".repeat(1000), keywords: Array.from({ length: 20 }, () => "\u0001".repeat(64)) };
    await expect(sealTeamCard({ id: newHandoffId(), shareKey: newShareKey(), card: huge }, key)).rejects.toMatchObject({ reason: "too_large" });
    await expect(sealTeamCard({ id: newHandoffId(), shareKey: newShareKey(), card: { ...card, title: "x".repeat(201) } }, key)).rejects.toThrow(/title is longer than 200/);
  });

  it("cardFromDocument takes the ranking fields of a ce-handoff and cuts long ones", () => {
    const doc = `---\nartifact_contract: "ce-handoff/v1"\ntitle: "${"T".repeat(300)}"\nsummary: "staged"\nkeywords: ["billing", "db"]\nbranch: "main"\n---\n# body\n`;
    const built = cardFromDocument(doc, { createdAt: "2026-05-01T10:00:00Z", publisher: "ana" });
    expect(built).toMatchObject({ summary: "staged", keywords: ["billing", "db"], branch: "main", publisher: "ana", created_at: "2026-05-01T10:00:00Z" });
    expect(built.title).toHaveLength(200);
    expect(cardFromDocument("plain notes", { createdAt: "2026-05-01T10:00:00Z" })).toEqual({ created_at: "2026-05-01T10:00:00Z" });
  });
});

describe("invites", () => {
  it("round-trip a server, a team token and a ring", async () => {
    const keys = [await newTeamKey(), await newTeamKey()];
    const token = newToken("team");
    const text = encodeInvite({ server: "https://handoff.example.com", team_token: token, keys, members: [] });
    expect(await parseInvite(`  ${text}\n`)).toEqual({ ok: true, value: { server: "https://handoff.example.com", team_token: token, keys, members: [] } });
    expect(await parseInvite(encodeInvite({ server: "http://127.0.0.1:8787", keys, members: [] }))).toMatchObject({ ok: true, value: { server: "http://127.0.0.1:8787", keys } });
  });

  const body = (value: unknown) => `handoff-invite-v1.${encodeBase64Url(new TextEncoder().encode(JSON.stringify(value)))}`;
  it.each([
    ["empty", async () => "", /does not start with 'handoff-invite-v2\.'/],
    ["a newer version", async () => "handoff-invite-v9.AAAA", /version 9 is not one this client reads/],
    ["cut short", async () => encodeInvite({ server: "https://a.example", keys: [await newTeamKey()], members: [] }).slice(0, 60), /not JSON|not base64url/],
    ["no keys", async () => body({ v: 1, server: "https://a.example", keys: [] }), /at least one team key/],
    ["a wrong-length key", async () => body({ v: 1, server: "https://a.example", keys: [{ id: "A".repeat(12), key: "A".repeat(42) }] }), /keys\.0\.key/],
    ["a key whose id does not match", async () => body({ v: 1, server: "https://a.example", keys: [{ id: "A".repeat(12), key: (await newTeamKey()).key }] }), /does not match its id/],
    ["plain http to a remote host", async () => body({ v: 1, server: "http://a.example", keys: [await newTeamKey()] }), /plain http/],
    ["a publish token", async () => body({ v: 1, server: "https://a.example", team_token: newToken("publish"), keys: [await newTeamKey()] }), /not a team token/],
    ["an unknown field", async () => body({ v: 1, server: "https://a.example", keys: [await newTeamKey()], extra: 1 }), /invalid|Unrecognized/i],
  ])("an invite that is %s is a clear invalid_document error", async (_label, make, message) => {
    const parsed = await parseInvite(await make());
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.reason).toBe("invalid_document");
      expect(parsed.error.message).toMatch(/^the invite is malformed: /);
      expect(parsed.error.message).toMatch(message);
    }
  });
});
