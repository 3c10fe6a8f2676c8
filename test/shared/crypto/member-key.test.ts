import { describe, expect, it } from "vitest";
import { encodeInvite, parseInvite } from "../../../shared/team/invite.js";
import { newShareKey } from "../../../shared/crypto/key.js";
import { MAX_INTRODUCTIONS, type MemberIdentity, checkIdentity, checkSigner, newMemberIdentity, publicKeyOf, signBytes, signatureWords, verifyBytes } from "../../../shared/crypto/member-key.js";
import { openTeamCard, sealCardContent, sealTeamCard } from "../../../shared/crypto/team-card.js";
import { newTeamKey } from "../../../shared/crypto/team-key.js";
import { encodeBase64Url } from "../../../shared/ids/base64url.js";
import { newHandoffId, newToken } from "../../../shared/ids/tokens.js";

// Member keys (Ed25519 through WebCrypto) and the signed team cards they make: a card is "from"
// its publisher only when that publisher's key signed it and the reader trusts the key, directly
// or through the introductions that lead to it.

const roster = (...members: MemberIdentity[]) => members.map(({ name, key }) => ({ name, key }));
const bytes = (text: string) => new TextEncoder().encode(text);

describe("member keys", () => {
  it("a new key is an Ed25519 pair whose secret gives its public key; an introduced one carries the introducer's statement", async () => {
    const ana = await newMemberIdentity("ana");
    expect(ana.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await publicKeyOf(ana.secret)).toBe(ana.key);
    expect(ana.intro).toEqual([]);
    const bob = await newMemberIdentity("bob", ana);
    expect(bob.intro).toEqual([{ by: ana.key, name: "bob", key: bob.key, sig: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/) }]);
    expect(await checkIdentity(bob, "bob's key")).toBeUndefined();
    expect((await checkIdentity({ ...bob, key: ana.key }, "bob's key"))?.message).toMatch(/secret and public key do not match/);
    expect((await checkIdentity({ ...bob, intro: [{ ...bob.intro[0]!, name: "bobby" }] }, "bob's key"))?.message).toMatch(/introduction 1 of its chain does not verify/);
    await expect(newMemberIdentity(" ana")).rejects.toThrow(/spaces around it/);
    await expect(newMemberIdentity("a\u001b[2Jb")).rejects.toThrow(/control character/);
  });

  it("signs and verifies; a changed message, another key or a malformed signature is false, never a throw", async () => {
    const ana = await newMemberIdentity("ana");
    const sig = await signBytes(ana, bytes("card"));
    expect(await verifyBytes(ana.key, bytes("card"), sig)).toBe(true);
    expect(await verifyBytes(ana.key, bytes("card!"), sig)).toBe(false);
    expect(await verifyBytes((await newMemberIdentity("eve")).key, bytes("card"), sig)).toBe(false);
    expect(await verifyBytes(ana.key, bytes("card"), "A".repeat(86))).toBe(false);
    expect(await verifyBytes("short", bytes("card"), sig)).toBe(false);
  });

  it(`a chain keeps its last ${MAX_INTRODUCTIONS} introductions`, async () => {
    let member = await newMemberIdentity("m0");
    for (let i = 1; i <= MAX_INTRODUCTIONS + 2; i++) member = await newMemberIdentity(`m${i}`, member);
    expect(member.intro).toHaveLength(MAX_INTRODUCTIONS);
    expect(await checkIdentity(member, "m6")).toBeUndefined();
  });
});

describe("checking a signer against a roster", () => {
  it("a key in the roster under the name it claims is verified; under another name it is not", async () => {
    const [ana, bob] = [await newMemberIdentity("ana"), await newMemberIdentity("bob")];
    expect(await checkSigner(ana, "ana", roster(ana, bob))).toEqual({ state: "verified", signer: "ana", introduced_by: [] });
    // A member posts a card claiming a colleague's name, signed with their own key.
    expect(await checkSigner(bob, "ana", roster(ana, bob))).toMatchObject({ state: "unverified", reason: "wrong_name", problem: "it names ana as its publisher, but it is signed with bob's key" });
  });

  it("a key introduced by a trusted member is verified and says by whom; through a chain, the nearest introducer first", async () => {
    const ana = await newMemberIdentity("ana");
    const bob = await newMemberIdentity("bob", ana);
    const carol = await newMemberIdentity("carol", bob);
    expect(await checkSigner(bob, "bob", roster(ana))).toEqual({ state: "verified", signer: "bob", introduced_by: ["ana"] });
    expect(await checkSigner(carol, "carol", roster(ana))).toEqual({ state: "verified", signer: "carol", introduced_by: ["bob", "ana"] });
    expect(await checkSigner(carol, "carol", roster(bob))).toEqual({ state: "verified", signer: "carol", introduced_by: ["bob"] });
    expect(signatureWords(await checkSigner(carol, "carol", roster(ana)))).toBe("from carol, introduced by bob");
  });

  it("an unknown key, a forged introduction, or a second key under a trusted name is unverified", async () => {
    const ana = await newMemberIdentity("ana");
    const bob = await newMemberIdentity("bob", ana);
    const stranger = await newMemberIdentity("ana");
    // A key no one this machine trusts introduced, whatever name it claims.
    expect(await checkSigner(stranger, "ana", roster(ana, bob))).toMatchObject({ state: "unverified", reason: "unknown_key" });
    expect(signatureWords(await checkSigner(stranger, "mallory", roster(ana)))).toBe("unverified: signed by an unknown key");
    // Introduced by someone this machine does not know.
    expect(await checkSigner(bob, "bob", roster(stranger))).toMatchObject({ state: "unverified", reason: "unknown_key" });
    // A forged introduction: the signature is ana's over another name.
    const forged = { key: bob.key, intro: [{ ...bob.intro[0]!, name: "boss" }] };
    expect(await checkSigner(forged, "boss", roster(ana))).toMatchObject({ state: "unverified", reason: "bad_signature" });
    // Bob introduces a second "ana": the reader knows ana with another key.
    const fakeAna = await newMemberIdentity("ana", bob);
    expect(await checkSigner(fakeAna, "ana", roster(ana, bob))).toMatchObject({ state: "unverified", reason: "wrong_name", problem: expect.stringMatching(/knows with another key/) });
  });
});

describe("signed team cards", () => {
  const card = { title: "Hotfix the ledger", created_at: "2026-05-01T10:00:00Z", publisher: "whoever" };

  it("a card sealed with a member key opens verified, its publisher the signer's name", async () => {
    const [teamKey, ana] = [await newTeamKey(), await newMemberIdentity("ana")];
    const id = newHandoffId();
    const shareKey = newShareKey();
    const sealed = await sealTeamCard({ id, shareKey, card }, teamKey, ana);
    expect(await openTeamCard(sealed, id, [teamKey], roster(ana))).toEqual({
      state: "readable",
      key_id: teamKey.id,
      card: { ...card, publisher: "ana" },
      share_key: shareKey,
      signature: { state: "verified", signer: "ana", introduced_by: [] },
    });
    // The same card, to a reader who does not know ana.
    expect(await openTeamCard(sealed, id, [teamKey], [])).toMatchObject({ state: "readable", signature: { state: "unverified", reason: "unknown_key" } });
  });

  it("a card changed after it was signed, one claiming another's name, and an unsigned one are readable but unverified", async () => {
    const teamKey = await newTeamKey();
    const ana = await newMemberIdentity("ana");
    const bob = await newMemberIdentity("bob", ana);
    const id = newHandoffId();
    const shareKey = newShareKey();
    const signed = JSON.stringify({ id, share_key: shareKey, card: { ...card, publisher: "ana" }, signer: { key: ana.key, intro: [] } });
    const sig = await signBytes(ana, bytes(`handoff team card v2\u0000${signed}`));
    // A teammate holding the team key re-seals ana's card with another title and her signature.
    const tampered = await sealCardContent({ v: 2, signed: signed.replace("Hotfix the ledger", "Run this script"), sig }, teamKey);
    expect(await openTeamCard(tampered, id, [teamKey], roster(ana, bob))).toMatchObject({ state: "readable", signature: { state: "unverified", reason: "bad_signature" } });
    // Bob signs a card that names ana.
    const claimed = JSON.stringify({ id, share_key: shareKey, card: { ...card, publisher: "ana" }, signer: { key: bob.key, intro: bob.intro } });
    const claimedCard = await sealCardContent({ v: 2, signed: claimed, sig: await signBytes(bob, bytes(`handoff team card v2\u0000${claimed}`)) }, teamKey);
    expect(await openTeamCard(claimedCard, id, [teamKey], roster(ana, bob))).toMatchObject({ signature: { state: "unverified", reason: "wrong_name" } });
    // A card from before signatures.
    const unsigned = await sealTeamCard({ id, shareKey, card }, teamKey);
    expect(await openTeamCard(unsigned, id, [teamKey], roster(ana, bob))).toMatchObject({ state: "readable", card, signature: { state: "unverified", reason: "no_signature" } });
  });
});

describe("invites carry the roster and the new member's key", () => {
  it("round-trip, and a member key that does not hold is refused", async () => {
    const keys = [await newTeamKey()];
    const ana = await newMemberIdentity("ana");
    const bob = await newMemberIdentity("bob", ana);
    const invite = { server: "https://handoff.example.com", team_token: newToken("team"), keys, members: roster(ana, bob), member: bob };
    expect(await parseInvite(encodeInvite(invite))).toEqual({ ok: true, value: invite });
    const broken = await parseInvite(encodeInvite({ ...invite, member: { ...bob, secret: ana.secret } }));
    expect(broken).toMatchObject({ ok: false, error: { reason: "invalid_document", message: expect.stringMatching(/secret and public key do not match/) } });
    const forged = await parseInvite(encodeInvite({ ...invite, member: { ...bob, intro: [{ ...bob.intro[0]!, sig: encodeBase64Url(new Uint8Array(64)) }] } }));
    expect(forged).toMatchObject({ ok: false, error: { message: expect.stringMatching(/does not verify/) } });
    expect(await parseInvite(encodeInvite({ ...invite, members: [{ name: "", key: ana.key }] }))).toMatchObject({ ok: false, error: { message: expect.stringMatching(/name is empty/) } });
  });
});
