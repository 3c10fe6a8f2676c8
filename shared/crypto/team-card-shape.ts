import { decodeBase64Url } from "../ids/base64url.js";
import { TEAM_KEY_ID_LENGTH } from "./team-key.js";

// What a sealed team card looks like from outside: the part of its format the server checks
// without the team key (team-card.ts seals and opens). Its own module, so the worker bundles
// this check and nothing of the card's content schemas or signatures.

/** The sealing's version: the `htc1.` prefix and the HKDF label. A layout change is a bump. */
export const TEAM_CARD_VERSION = 1;
export const CARD_PREFIX = `htc${TEAM_CARD_VERSION}.`;
/** `htc1.<key id>.<base64url>`: the key id and the sealed bytes as groups 1 and 2. */
export const CARD_SHAPE = new RegExp(`^htc1\\.([A-Za-z0-9_-]{${TEAM_KEY_ID_LENGTH}})\\.([A-Za-z0-9_-]+)$`);

/**
 * A team card's sealed plaintext (the card, the wrapped share key and the handoff id as JSON) is
 * padded to a multiple of this, so a card's size says little about its title's length.
 */
export const TEAM_CARD_PAD_BYTES = 256;

/** The largest padded card plaintext: a title, a summary, keywords and a few labels fit well within. */
export const MAX_TEAM_CARD_PLAINTEXT_BYTES = 16 * TEAM_CARD_PAD_BYTES;

/** Bytes a sealed card adds to its padded plaintext: HKDF salt (16), AES-GCM IV (12) and tag (16). */
export const TEAM_CARD_OVERHEAD_BYTES = 16 + 12 + 16;

/** `htc1.` + the key id + `.` before the base64url of the sealed bytes. */
export const TEAM_CARD_PREFIX_CHARS = CARD_PREFIX.length + TEAM_KEY_ID_LENGTH + 1;

/** Characters of a sealed card's text for a padded plaintext of `paddedBytes` (base64url, unpadded). */
export function sealedCardChars(paddedBytes: number): number {
  return TEAM_CARD_PREFIX_CHARS + Math.ceil(((paddedBytes + TEAM_CARD_OVERHEAD_BYTES) * 4) / 3);
}

/** The longest sealed card the server stores and a client accepts in a listing (5,538 characters). */
export const MAX_TEAM_CARD_CHARS = sealedCardChars(MAX_TEAM_CARD_PLAINTEXT_BYTES);

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
  const match = CARD_SHAPE.exec(sealed);
  if (match === null) return "the team card is not 'htc1.<key id>.<base64url>'";
  const bytes = decodeBase64Url(match[2]!);
  if (bytes === undefined) return "the team card's sealed part is not canonical base64url";
  const padded = bytes.length - TEAM_CARD_OVERHEAD_BYTES;
  if (padded < TEAM_CARD_PAD_BYTES || padded % TEAM_CARD_PAD_BYTES !== 0) return `the team card's sealed part has ${bytes.length} bytes, not a padded card's size`;
  return undefined;
}
