import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { parseShareKey } from "./key.js";
import { mixedSecret } from "./passphrase.js";

// Proof of the share key without the key: a value derived from the link secret that the server
// can check (it stores only its SHA-256) but cannot turn back into the secret or the AES key.
// Layout and versions: docs/storage.md ("The read token"). WebCrypto only, like the envelope, so
// the CLI and the browser reader derive it with this same code.

/** The request header that carries the read token, on publish (to register it) and on a body read. */
export const READ_TOKEN_HEADER = "Handoff-Read-Token";

/**
 * The request header of a publish whose link has a passphrase (envelope v2): value `v2`. The
 * server then answers a read token that does not match with "needs its passphrase" (docs/api.md).
 */
export const PASSPHRASE_HEADER = "Handoff-Passphrase";

/**
 * The request header of a passphrase link's publish: the read token of the link alone
 * (`deriveReadToken(key)`, no passphrase). The server keeps its hash, so a read that gave the link
 * but no passphrase (what a reader tries first) is told so and is not counted as a wrong
 * passphrase (docs/api.md, "Wrong passphrases, per link").
 */
export const LINK_TOKEN_HEADER = "Handoff-Link-Token";

/** 32 bytes of HKDF output, base64url: 43 characters. */
export const READ_TOKEN_LENGTH = 43;

/**
 * Not the envelope's label ("handoff envelope v1 AES-256-GCM"): HKDF with a distinct info gives an
 * independent output, so knowing the read token says nothing about the AES key, and a v2 scheme
 * gets a new label.
 */
const READ_TOKEN_INFO = new TextEncoder().encode("handoff read token v1");
/** A passphrase link's token (envelope v2): the passphrase key is mixed in, under its own label. */
const READ_TOKEN_V2_INFO = new TextEncoder().encode("handoff read token v2 passphrase");

/**
 * The read token of a share key: HKDF-SHA-256(secret, empty salt, "handoff read token v1"),
 * 32 bytes, base64url. Deterministic, so the publisher and every reader derive the same value.
 * A malformed key throws `decrypt_failed` (the same error as opening the envelope would).
 *
 * @example
 * ```ts
 * const headers = { "Handoff-Read-Token": await deriveReadToken(parsed.key) };
 * ```
 */
export async function deriveReadToken(key: string, passKey?: Uint8Array): Promise<string> {
  const secret = parseShareKey(key);
  if (!secret.ok) throw secret.error;
  // No salt: the token must be derivable before the envelope (which holds the salt) is fetched;
  // the secret is already 256 uniformly random bits, which is what HKDF's salt would supply.
  // With a passphrase key (`derivePassphraseKey`) the input is secret || passKey: the link alone
  // then yields a token the server refuses, so it cannot even fetch the ciphertext.
  const base = await crypto.subtle.importKey("raw", mixedSecret(secret.value, passKey), "HKDF", false, ["deriveBits"]);
  const info = passKey === undefined ? READ_TOKEN_INFO : READ_TOKEN_V2_INFO;
  const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info }, base, 256);
  return encodeBase64Url(new Uint8Array(bits));
}

/**
 * True when `text` has the shape of a read token (43 canonical base64url characters).
 *
 * @example
 * ```ts
 * isReadToken(await deriveReadToken(key)) // true
 * isReadToken("not-a-token") // false
 * ```
 */
export function isReadToken(text: string): boolean {
  return text.length === READ_TOKEN_LENGTH && decodeBase64Url(text)?.length === 32;
}
