// The envelope's sizes, without any crypto or schema code: size limits are computed from them on
// the CLI's start-up path. Layout and threat model: docs/storage.md ("The handoff envelope").

/** "HOFF": lets a reader tell an envelope from some other download before trying keys. */
export const MAGIC = new Uint8Array([0x48, 0x4f, 0x46, 0x46]);
export const SALT_BYTES = 16;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
/** magic (4) + version (1) + salt (16) + iv (12): authenticated as AAD, sent in the clear. */
export const HEADER_BYTES = MAGIC.length + 1 + SALT_BYTES + IV_BYTES;
/**
 * Envelope v2 (a passphrase link) adds the KDF: id (1) + iterations (4, big-endian) + PBKDF2 salt
 * (16). The largest header of any version, so size limits assume it.
 */
export const HEADER_V2_BYTES = HEADER_BYTES + 1 + 4 + 16;

/** Longest metadata JSON a reader accepts; real metadata is ~150 bytes. */
export const MAX_META_BYTES = 4096;

/** Every framed plaintext is padded at least to this, so tiny handoffs all look alike. */
export const MIN_PADDED_BYTES = 256;

/**
 * Padmé padding (Nikitin et al., "Reducing Metadata Leakage from Encrypted Files and
 * Communication with PURBs", 2019): rounds a length so that only O(log log n) bits of it
 * show, at most ~12% overhead; below MIN_PADDED_BYTES everything is one size.
 *
 * @example
 * ```ts
 * paddedLength(100) // 256
 * paddedLength(5000) // 5120
 * ```
 */
export function paddedLength(length: number): number {
  if (length <= MIN_PADDED_BYTES) return MIN_PADDED_BYTES;
  const e = Math.floor(Math.log2(length));
  const s = Math.floor(Math.log2(e)) + 1;
  const step = 2 ** (e - s);
  return Math.ceil(length / step) * step;
}
