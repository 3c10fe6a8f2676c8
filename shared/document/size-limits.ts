import { HEADER_V2_BYTES, MAX_META_BYTES, TAG_BYTES, paddedLength } from "../crypto/layout.js";

/**
 * Every size limit a handoff document meets, defined once. A handoff is a document a person could
 * read in one sitting: bodies, sources, manifests and scans are all capped at MAX_DOCUMENT_BYTES.
 * A team card's sizes belong to its sealed shape (crypto/team-card-shape.ts).
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
