// zod's "mini" build: the worker bundles this file's shape check.
import * as z from "zod/mini";
import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError } from "../errors.js";
import { isHandoffId } from "../ids/handoff-id.js";
import { MAX_TEAM_CARD_CHARS, MAX_TEAM_CARD_PLAINTEXT_BYTES, TEAM_CARD_OVERHEAD_BYTES, TEAM_CARD_PAD_BYTES } from "../document/size-limits.js";
import { KEY_LENGTH, parseShareKey } from "./key.js";
import { TEAM_KEY_ID_LENGTH, type TeamKey, parseTeamKey } from "./team-key.js";

// A team entry's sealed card: what a teammate needs to find a handoff and open it, sealed with
// the team key so the server stores it without reading it. One AEAD seals the card (title,
// summary, keywords, ...), the link's share key and the handoff id together; the id inside is
// checked on open, so a card moved to another entry is refused. Format: docs/storage.md
// ("The team card"). WebCrypto only.

/** The sealed card's version: the `htc1.` prefix and the HKDF label. A layout change is a bump. */
export const TEAM_CARD_VERSION = 1;
const PREFIX = `htc${TEAM_CARD_VERSION}.`;
const HKDF_INFO = new TextEncoder().encode("handoff team card v1 AES-256-GCM");
const SALT_BYTES = 16;
const IV_BYTES = 12;
const SHAPE = new RegExp(`^htc1\\.([A-Za-z0-9_-]{${TEAM_KEY_ID_LENGTH}})\\.([A-Za-z0-9_-]+)$`);

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

const SealedContentSchema = z.strictObject({
  v: z.literal(TEAM_CARD_VERSION),
  id: z.string(),
  share_key: z.string().check(z.length(KEY_LENGTH)),
  card: TeamCardSchema,
});

/** A card as a reader finds it: readable, sealed with a key this ring lacks, or refused (why). */
export type OpenedCard =
  | { state: "readable"; key_id: string; card: TeamCard; share_key: string }
  | { state: "unknown_key"; key_id: string }
  | { state: "unreadable"; key_id: string | null; why: string };

/**
 * Why `sealed` is not a sealed card's shape and size, undefined when it is: what the server can check without the key.
 *
 * @example
 * ```ts
 * sealedCardProblem("htc1.Q0xN3v7pTzc_.AAAA...") // undefined for a well-formed card
 * ```
 */
export function sealedCardProblem(sealed: string): string | undefined {
  if (sealed.length > MAX_TEAM_CARD_CHARS) return `the team card is ${sealed.length} characters, more than the ${MAX_TEAM_CARD_CHARS} allowed`;
  const match = SHAPE.exec(sealed);
  if (match === null) return "the team card is not 'htc1.<key id>.<base64url>'";
  const bytes = decodeBase64Url(match[2]!);
  if (bytes === undefined) return "the team card's sealed part is not canonical base64url";
  const padded = bytes.length - TEAM_CARD_OVERHEAD_BYTES;
  if (padded < TEAM_CARD_PAD_BYTES || padded % TEAM_CARD_PAD_BYTES !== 0) return `the team card's sealed part has ${bytes.length} bytes, not a padded card's size`;
  return undefined;
}

/**
 * Seals `card` and the share key of handoff `id` with the team key `teamKey`.
 *
 * @example
 * ```ts
 * const sealed = await sealTeamCard({ id, shareKey: key, card: { title: "Auth", created_at } }, ring[0]);
 * // "htc1.<key id>.<base64url>": sent as the Handoff-Team-Card header of a team publish
 * ```
 */
export async function sealTeamCard(input: { id: string; shareKey: string; card: TeamCard }, teamKey: TeamKey): Promise<string> {
  if (!isHandoffId(input.id)) throw new HandoffError("internal", "cannot seal a team card: the id is not a handoff id");
  const share = parseShareKey(input.shareKey);
  if (!share.ok) throw new HandoffError("internal", `cannot seal a team card: ${share.error.message}`);
  const card = TeamCardSchema.safeParse(input.card);
  if (!card.success) {
    const issue = card.error.issues[0];
    throw new HandoffError("invalid_document", `cannot seal the team card: ${issue?.path.join(".") || "card"}: ${issue?.message ?? "invalid"}`);
  }
  const json = new TextEncoder().encode(JSON.stringify({ v: TEAM_CARD_VERSION, id: input.id, share_key: input.shareKey, card: card.data }));
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
  return `${PREFIX}${teamKey.id}.${encodeBase64Url(out)}`;
}

/**
 * Opens the card of the team entry `id` with the first key of `ring` whose id it names. Never
 * throws: an entry a member cannot read is listed as such, not as an error.
 *
 * @example
 * ```ts
 * const opened = await openTeamCard(entry.card, entry.id, ring);
 * if (opened.state === "readable") console.log(opened.card.title);
 * ```
 */
export async function openTeamCard(sealed: string, id: string, ring: readonly TeamKey[]): Promise<OpenedCard> {
  const problem = sealedCardProblem(sealed);
  const keyId = SHAPE.exec(sealed)?.[1] ?? null;
  if (problem !== undefined || keyId === null) return { state: "unreadable", key_id: keyId, why: problem ?? "malformed" };
  const teamKey = ring.find((k) => k.id === keyId);
  if (teamKey === undefined || !parseTeamKey(teamKey.key).ok) return { state: "unknown_key", key_id: keyId };
  const bytes = decodeBase64Url(sealed.slice(PREFIX.length + keyId.length + 1))!;
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
  const content = SealedContentSchema.safeParse(json);
  if (!content.success) return { state: "unreadable", key_id: keyId, why: `the card's content is malformed (${content.error.issues[0]?.path.join(".") || "object"})` };
  if (content.data.id !== id) return { state: "unreadable", key_id: keyId, why: `the card was sealed for another entry (${content.data.id}), not this one` };
  if (!parseShareKey(content.data.share_key).ok) return { state: "unreadable", key_id: keyId, why: "the card's share key is malformed" };
  return { state: "readable", key_id: keyId, card: content.data.card, share_key: content.data.share_key };
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
