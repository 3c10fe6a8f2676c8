import { HEADER_V2_BYTES, MAX_META_BYTES, TAG_BYTES, paddedLength } from "../crypto/layout.js";

/**
 * Every size limit a handoff meets, defined once. A handoff is a document a person could read in
 * one sitting: bodies, sources, manifests and scans are all capped at MAX_DOCUMENT_BYTES.
 *
 * @example
 * ```ts
 * maxPlaintextFor(DEFAULT_SERVER_BODY_LIMIT) // 1028092: what still fits once sealed
 * ```
 */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** The default server's cap on a published (sealed) body: worker MAX_BODY_BYTES. */
export const DEFAULT_SERVER_BODY_LIMIT = 1_048_576;

/** The size of a sealed envelope for a plaintext of `plaintextBytes` (metadata at its largest). */
export function sealedSizeFor(plaintextBytes: number): number {
  // The largest header (a passphrase link's), so every version fits.
  return HEADER_V2_BYTES + paddedLength(4 + MAX_META_BYTES + plaintextBytes) + TAG_BYTES;
}

/**
 * The largest plaintext whose envelope (header, framing, metadata, padding, tag) stays within
 * `serverLimit` bytes, so a document the client accepts is never refused with a 413.
 */
export function maxPlaintextFor(serverLimit: number): number {
  let low = 0;
  let high = serverLimit;
  if (sealedSizeFor(0) > serverLimit) return 0;
  // Padding is monotonic in the length, so the largest fitting size is found by bisection.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sealedSizeFor(mid) <= serverLimit) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** What `publish` accepts locally for the default server. */
export const MAX_PUBLISH_PLAINTEXT = Math.min(MAX_DOCUMENT_BYTES, maxPlaintextFor(DEFAULT_SERVER_BODY_LIMIT));

/**
 * A team card's sealed plaintext (the card, the wrapped share key and the handoff id as JSON) is
 * padded to a multiple of this, so a card's size says little about its title's length.
 */
export const TEAM_CARD_PAD_BYTES = 256;

/** The largest padded card plaintext: a title, a summary, keywords and a few labels fit well within. */
export const MAX_TEAM_CARD_PLAINTEXT_BYTES = 16 * TEAM_CARD_PAD_BYTES;

/** Bytes a sealed card adds to its padded plaintext: HKDF salt (16), AES-GCM IV (12) and tag (16). */
export const TEAM_CARD_OVERHEAD_BYTES = 16 + 12 + 16;

/** `htc1.` + a 12-character key id + `.` before the base64url of the sealed bytes. */
export const TEAM_CARD_PREFIX_CHARS = 5 + 12 + 1;

/** Characters of a sealed card's text for a padded plaintext of `paddedBytes` (base64url, unpadded). */
export function sealedCardChars(paddedBytes: number): number {
  return TEAM_CARD_PREFIX_CHARS + Math.ceil(((paddedBytes + TEAM_CARD_OVERHEAD_BYTES) * 4) / 3);
}

/** The longest sealed card the server stores and a client accepts in a listing (5,538 characters). */
export const MAX_TEAM_CARD_CHARS = sealedCardChars(MAX_TEAM_CARD_PLAINTEXT_BYTES);
