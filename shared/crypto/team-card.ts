// zod's "mini" build, as the other shared schemas (the worker bundles only team-card-shape.ts).
import * as z from "zod/mini";
import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError } from "../errors.js";
import { isHandoffId } from "../ids/handoff-id.js";
import { KEY_LENGTH, parseShareKey } from "./key.js";
import { MAX_INTRODUCTIONS, MEMBER_KEY_LENGTH, type MemberIdentity, type MemberKey, SIGNATURE_LENGTH, type SignerCheck, checkSigner, signBytes, verifyBytes } from "./member-key.js";
import { CARD_PREFIX, CARD_SHAPE, MAX_TEAM_CARD_PLAINTEXT_BYTES, TEAM_CARD_PAD_BYTES, sealedCardProblem } from "./team-card-shape.js";
import { type TeamKey, parseTeamKey } from "./team-key.js";

// A team entry's sealed card: what a teammate needs to find a handoff and open it, sealed with
// the team key so the server stores it without reading it. One AEAD seals the card (title,
// summary, keywords, ...), the link's share key and the handoff id together; the id inside is
// checked on open, so a card moved to another entry is refused. Inside the seal, a card (content
// v2) is signed by the member who published it (member-key.ts), so a teammate can tell a card
// from its named publisher from one any key holder wrote. Format: docs/storage.md ("The team
// card"). WebCrypto only.

/** The sealed content's version: 1 unsigned (still read, shown as unverified), 2 signed. */
export const TEAM_CARD_CONTENT_VERSION = 2;
const HKDF_INFO = new TextEncoder().encode("handoff team card v1 AES-256-GCM");
const SALT_BYTES = 16;
const IV_BYTES = 12;

const text = (name: string, max: number) => z.string(`${name} must be a string`).check(z.maxLength(max, `${name} is longer than ${max} characters`));

/** What a teammate sees of a team handoff before opening it. Every field but created_at is optional. */
export const TeamCardSchema = z.strictObject({
  title: z.optional(text("title", 200)),
  summary: z.optional(text("summary", 1000)),
  keywords: z.optional(z.array(text("a keyword", 64)).check(z.maxLength(20, "at most 20 keywords"))),
  /** When the handoff was created, ISO 8601 with a zone. */
  created_at: z.iso.datetime({ offset: true, error: "created_at must be an ISO 8601 date-time with a zone" }),
  repository: z.optional(text("repository", 300)),
  branch: z.optional(text("branch", 255)),
  /** Who published it, as they chose to be named (a user name by default). */
  publisher: z.optional(text("publisher", 100)),
});
export type TeamCard = z.infer<typeof TeamCardSchema>;

/** Content v1: written before signed cards, and still by a member without a member key. */
const SealedContentSchema = z.strictObject({
  v: z.literal(1),
  id: z.string(),
  share_key: z.string().check(z.length(KEY_LENGTH)),
  card: TeamCardSchema,
});

const memberKey = z.string().check(z.length(MEMBER_KEY_LENGTH));
const IntroductionSchema = z.strictObject({ by: memberKey, name: z.string(), key: memberKey, sig: z.string().check(z.length(SIGNATURE_LENGTH)) });

/** Content v2: the signed text exactly as signed (so nothing is re-serialised to check it) and its signature. */
const SignedContentSchema = z.strictObject({ v: z.literal(TEAM_CARD_CONTENT_VERSION), signed: z.string(), sig: z.string().check(z.length(SIGNATURE_LENGTH)) });
const SignedCardSchema = z.strictObject({
  id: z.string(),
  share_key: z.string().check(z.length(KEY_LENGTH)),
  card: TeamCardSchema,
  /** The signer's public key and how it was introduced (root first). Its name is the card's publisher. */
  signer: z.strictObject({ key: memberKey, intro: z.array(IntroductionSchema).check(z.maxLength(MAX_INTRODUCTIONS)) }),
});
const SIGNATURE_LABEL = "handoff team card v2\u0000";
const signedBytes = (signed: string) => new TextEncoder().encode(`${SIGNATURE_LABEL}${signed}`);

/** A card as a reader finds it: readable (and whether its publisher checks out), sealed with a key this ring lacks, or refused (why). */
export type OpenedCard =
  | { state: "readable"; key_id: string; card: TeamCard; share_key: string; signature: SignerCheck }
  | { state: "unknown_key"; key_id: string }
  | { state: "unreadable"; key_id: string | null; why: string };

/**
 * Seals `card` and the share key of handoff `id` with the team key `teamKey`, signed by `signer`
 * when given (content v2: the card's publisher is then the signer's name), else unsigned (v1).
 *
 * @example
 * ```ts
 * const sealed = await sealTeamCard({ id, shareKey: key, card: { title: "Auth", created_at } }, ring[0], identity);
 * // "htc1.<key id>.<base64url>": sent as the Handoff-Team-Card header of a team publish
 * ```
 */
export async function sealTeamCard(input: { id: string; shareKey: string; card: TeamCard }, teamKey: TeamKey, signer?: MemberIdentity): Promise<string> {
  if (!isHandoffId(input.id)) throw new HandoffError("internal", "cannot seal a team card: the id is not a handoff id");
  const share = parseShareKey(input.shareKey);
  if (!share.ok) throw new HandoffError("internal", `cannot seal a team card: ${share.error.message}`);
  const card = TeamCardSchema.safeParse(input.card);
  if (!card.success) {
    const issue = card.error.issues[0];
    throw new HandoffError("invalid_document", `cannot seal the team card: ${issue?.path.join(".") || "card"}: ${issue?.message ?? "invalid"}`);
  }
  return sealCardContent(await contentOf(input.id, input.shareKey, card.data, signer), teamKey);
}

/**
 * Seals any content as a card's (its JSON, padded) with `teamKey`: what `sealTeamCard` does once
 * it has built and signed the content.
 * @internal Tests also seal contents no client writes (a card claiming another member's name, a
 * card changed after it was signed), as a teammate holding the team key could.
 */
export async function sealCardContent(content: unknown, teamKey: TeamKey): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(content));
  if (json.length > MAX_TEAM_CARD_PLAINTEXT_BYTES) {
    throw new HandoffError("too_large", `the team card is ${json.length} bytes, more than the ${MAX_TEAM_CARD_PLAINTEXT_BYTES} allowed`, { hint: "shorten the title, summary or keywords" });
  }
  // Trailing spaces pad it: JSON.parse ignores them, and every card of a size class looks alike.
  const plain = new Uint8Array(Math.max(1, Math.ceil(json.length / TEAM_CARD_PAD_BYTES)) * TEAM_CARD_PAD_BYTES).fill(0x20);
  plain.set(json, 0);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const aes = await cardKey(teamKey.key, salt);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad(teamKey.id) }, aes, plain));
  const out = new Uint8Array(SALT_BYTES + IV_BYTES + sealed.length);
  out.set(salt, 0);
  out.set(iv, SALT_BYTES);
  out.set(sealed, SALT_BYTES + IV_BYTES);
  return `${CARD_PREFIX}${teamKey.id}.${encodeBase64Url(out)}`;
}

/** The sealed content: v2 signed by `signer` (its name as the publisher), or v1 without one. */
async function contentOf(id: string, shareKey: string, card: TeamCard, signer: MemberIdentity | undefined) {
  if (signer === undefined) return { v: 1, id, share_key: shareKey, card };
  const signed = JSON.stringify({ id, share_key: shareKey, card: { ...card, publisher: signer.name }, signer: { key: signer.key, intro: signer.intro } });
  return { v: TEAM_CARD_CONTENT_VERSION, signed, sig: await signBytes(signer, signedBytes(signed)) };
}

/**
 * Opens the card of the team entry `id` with the first key of `ring` whose id it names, and
 * checks its publisher's signature against `roster` (the members this machine trusts). Never
 * throws: an entry a member cannot read is listed as such, not as an error; a card that is
 * readable but not signed by its named publisher is readable and `unverified`.
 *
 * @example
 * ```ts
 * const opened = await openTeamCard(entry.card, entry.id, ring, roster);
 * if (opened.state === "readable" && opened.signature.state === "verified") console.log(opened.card.title, opened.signature.signer);
 * ```
 */
export async function openTeamCard(sealed: string, id: string, ring: readonly TeamKey[], roster: readonly MemberKey[] = []): Promise<OpenedCard> {
  const problem = sealedCardProblem(sealed);
  const keyId = CARD_SHAPE.exec(sealed)?.[1] ?? null;
  if (problem !== undefined || keyId === null) return { state: "unreadable", key_id: keyId, why: problem ?? "malformed" };
  const teamKey = ring.find((k) => k.id === keyId);
  if (teamKey === undefined || !parseTeamKey(teamKey.key).ok) return { state: "unknown_key", key_id: keyId };
  const bytes = decodeBase64Url(sealed.slice(CARD_PREFIX.length + keyId.length + 1))!;
  let plain: Uint8Array;
  try {
    const aes = await cardKey(teamKey.key, bytes.subarray(0, SALT_BYTES));
    plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.subarray(SALT_BYTES, SALT_BYTES + IV_BYTES), additionalData: aad(keyId) }, aes, bytes.subarray(SALT_BYTES + IV_BYTES)),
    );
  } catch {
    return { state: "unreadable", key_id: keyId, why: "the card does not authenticate under its team key: forged or damaged" };
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(plain));
  } catch {
    return { state: "unreadable", key_id: keyId, why: "the card's content is not UTF-8 JSON" };
  }
  const content = await readContent(json, roster);
  if ("why" in content) return { state: "unreadable", key_id: keyId, why: content.why };
  if (content.id !== id) return { state: "unreadable", key_id: keyId, why: `the card was sealed for another entry (${content.id}), not this one` };
  if (!parseShareKey(content.share_key).ok) return { state: "unreadable", key_id: keyId, why: "the card's share key is malformed" };
  return { state: "readable", key_id: keyId, card: content.card, share_key: content.share_key, signature: content.signature };
}

type Content = { id: string; share_key: string; card: TeamCard; signature: SignerCheck } | { why: string };

const malformed = (issues: readonly { path: readonly PropertyKey[] }[]) => ({ why: `the card's content is malformed (${issues[0]?.path.join(".") || "object"})` });

/** The opened content, v1 (no signature) or v2 (its signature and signer checked), or why it is refused. */
async function readContent(json: unknown, roster: readonly MemberKey[]): Promise<Content> {
  const v1 = SealedContentSchema.safeParse(json);
  if (v1.success) return { ...v1.data, signature: { state: "unverified", reason: "no_signature", problem: "no signature" } };
  const v2 = SignedContentSchema.safeParse(json);
  if (!v2.success) return malformed((json as { v?: unknown } | null)?.v === TEAM_CARD_CONTENT_VERSION ? v2.error.issues : v1.error.issues);
  let inner: unknown;
  try {
    inner = JSON.parse(v2.data.signed);
  } catch {
    return { why: "the card's signed content is not JSON" };
  }
  const signed = SignedCardSchema.safeParse(inner);
  if (!signed.success) return malformed(signed.error.issues);
  const { id, share_key, card, signer } = signed.data;
  // A signature that does not match means the card changed after it was signed (or never was).
  const signature: SignerCheck = !(await verifyBytes(signer.key, signedBytes(v2.data.signed), v2.data.sig))
    ? { state: "unverified", reason: "bad_signature", problem: "the signature does not match the card: changed after it was signed, or forged" }
    : card.publisher === undefined
      ? { state: "unverified", reason: "wrong_name", problem: "it is signed but names no publisher" }
      : await checkSigner(signer, card.publisher, roster);
  return { id, share_key, card, signature };
}

/** The key id is authenticated: a card cannot be relabelled to send a reader to another key. */
const aad = (keyId: string) => new TextEncoder().encode(`handoff team card v1\u0000${keyId}`);

// A fresh AES key per card from a random salt, as the envelope does: the IV space is per card.
async function cardKey(teamKey: string, salt: Uint8Array) {
  const secret = parseTeamKey(teamKey);
  if (!secret.ok) throw secret.error;
  const base = await crypto.subtle.importKey("raw", secret.value, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: salt.slice(), info: HKDF_INFO }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}
