import { HandoffError } from "../errors.js";
import { parseShareKey } from "./key.js";

// A passphrase as a second factor on a share link: PBKDF2-SHA-256 of the passphrase, mixed into
// the envelope key (envelope v2) and into the read token, so the link alone can neither decrypt
// nor fetch the ciphertext. Every online guess is a read request (rate limited, no view spent);
// the cost below only matters to someone holding both the link and the ciphertext.
// Parameters and threat model: docs/storage.md ("Passphrase links: envelope v2").

/** PBKDF2-HMAC-SHA-256 iterations: OWASP's 2023 figure for this KDF. Fixed per envelope version. */
export const PASSPHRASE_ITERATIONS = 600_000;
/** Bytes of PBKDF2 output (and of the salt). */
export const PASSPHRASE_KEY_BYTES = 32;
export const PASSPHRASE_SALT_BYTES = 16;
/** The longest passphrase accepted (characters), so a pasted file cannot make one. */
export const MAX_PASSPHRASE_CHARS = 1024;

const SALT_INFO = new TextEncoder().encode("handoff passphrase salt v2");

/**
 * The PBKDF2 salt of a link: HKDF-SHA-256(link secret, "handoff passphrase salt v2"), 16 bytes.
 * Derived from the link's own 256-bit secret, so it is unique per link and a reader knows it
 * before fetching anything (the read token needs it); the envelope header carries it too.
 *
 * @example
 * ```ts
 * const salt = await passphraseSalt(key); // 16 bytes, the same for every reader of this link
 * ```
 */
export async function passphraseSalt(key: string): Promise<Uint8Array<ArrayBuffer>> {
  const secret = parseShareKey(key);
  if (!secret.ok) throw secret.error;
  const base = await crypto.subtle.importKey("raw", secret.value, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: SALT_INFO }, base, PASSPHRASE_SALT_BYTES * 8));
}

/**
 * The passphrase key of a link: PBKDF2-HMAC-SHA-256(NFC(passphrase) as UTF-8, passphraseSalt(key),
 * 600,000 iterations, 32 bytes). An empty or overlong passphrase is `invalid_option`.
 *
 * @example
 * ```ts
 * const passKey = await derivePassphraseKey(key, "correct horse battery staple");
 * const token = await deriveReadToken(key, passKey);
 * ```
 */
export async function derivePassphraseKey(key: string, passphrase: string): Promise<Uint8Array<ArrayBuffer>> {
  const problem = passphraseProblem(passphrase);
  if (problem) throw new HandoffError("invalid_option", problem, { hint: "use a passphrase of 1 to 1024 characters" });
  const salt = await passphraseSalt(key);
  // NFC: the same passphrase typed on two keyboards (composed or decomposed accents) is one passphrase.
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(passphrase.normalize("NFC")), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: PASSPHRASE_ITERATIONS }, material, PASSPHRASE_KEY_BYTES * 8));
}

/** Why `passphrase` cannot be one, or undefined. */
export function passphraseProblem(passphrase: string): string | undefined {
  if (passphrase.length === 0) return "the passphrase is empty";
  if (passphrase.length > MAX_PASSPHRASE_CHARS) return `the passphrase is longer than ${MAX_PASSPHRASE_CHARS} characters`;
  return undefined;
}

/** The link secret and the passphrase key side by side: the input keying material of HKDF in v2. */
export function mixedSecret(secret: Uint8Array, passKey: Uint8Array | undefined): Uint8Array<ArrayBuffer> {
  if (passKey === undefined) return secret.slice();
  if (passKey.length !== PASSPHRASE_KEY_BYTES) throw new HandoffError("internal", "a passphrase key is 32 bytes");
  const out = new Uint8Array(secret.length + passKey.length);
  out.set(secret, 0);
  out.set(passKey, secret.length);
  return out;
}
