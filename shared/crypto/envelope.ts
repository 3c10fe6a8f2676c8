import { HandoffError, type Result } from "../errors.js";
import { type EnvelopeMeta, type SealMeta, SealMetaSchema, frameHandoff, unframeHandoff } from "./frame.js";
import { newShareKey, parseShareKey } from "./key.js";
import { HEADER_BYTES, HEADER_V2_BYTES, IV_BYTES, MAGIC, SALT_BYTES, TAG_BYTES } from "./layout.js";
import { PASSPHRASE_ITERATIONS, PASSPHRASE_SALT_BYTES, derivePassphraseKey, mixedSecret, passphraseSalt } from "./passphrase.js";

// The end-to-end envelope: what the server stores is this and nothing else. Layout, KDF and
// threat model: docs/storage.md ("The handoff envelope"). WebCrypto only, so Node 20, workerd and a browser share it.

/** The envelope format of a link without a passphrase. A layout change is a bump. */
export const ENVELOPE_VERSION = 1;
/** A passphrase link's envelope: v1 plus the KDF in the header, and the passphrase key mixed in. */
export const PASSPHRASE_ENVELOPE_VERSION = 2;

/** Binds the derived key to this version and cipher, so a v2 can never reuse a v1 key by accident. */
const HKDF_INFO = new TextEncoder().encode("handoff envelope v1 AES-256-GCM");
const HKDF_V2_INFO = new TextEncoder().encode("handoff envelope v2 AES-256-GCM PBKDF2-SHA-256");
/** The header's KDF id in v2: 1 = PBKDF2-HMAC-SHA-256. */
const KDF_PBKDF2_SHA256 = 1;

export type { EnvelopeMeta, SealMeta } from "./frame.js";

/**
 * Two orthogonal choices: `passphrase` picks the envelope version (v2 wraps the key with PBKDF2),
 * `trailing` the payload format (2 = the document plus a changes bundle, framed by
 * shared/crypto/payload.ts). Either envelope version carries either payload format.
 */
export interface SealOptions {
  passphrase?: string;
  /** Bytes sealed after the body (a payload-2 bundle); a version-1 reader skips them as padding. */
  trailing?: Uint8Array;
}

/**
 * Encrypts a handoff under a fresh 256-bit secret. The returned `key` goes in the share URL's
 * fragment only; `ciphertext` is all the server ever gets.
 *
 * @example
 * ```ts
 * const { ciphertext, key } = await sealHandoff(new TextEncoder().encode("# Handoff"), {
 *   format: "ce-handoff/v1", file_name: "fix-login.md", created_at: "2026-05-01T10:00:00Z",
 * });
 * const url = buildShareUrl(server, id, key);
 * ```
 */
export async function sealHandoff(plaintext: Uint8Array, meta: SealMeta, options: SealOptions = {}): Promise<{ ciphertext: Uint8Array; key: string; passKey?: Uint8Array<ArrayBuffer> }> {
  const checked = SealMetaSchema.safeParse(meta);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new HandoffError("invalid_document", `cannot seal the handoff: ${issue?.path.join(".") || "meta"}: ${issue?.message ?? "invalid"}`, {
      details: { issues: checked.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
    });
  }
  const key = newShareKey();
  const secret = unwrap(parseShareKey(key));
  const passKey = options.passphrase === undefined ? undefined : await derivePassphraseKey(key, options.passphrase);
  const header = new Uint8Array(passKey === undefined ? HEADER_BYTES : HEADER_V2_BYTES);
  header.set(MAGIC, 0);
  header[MAGIC.length] = passKey === undefined ? ENVELOPE_VERSION : PASSPHRASE_ENVELOPE_VERSION;
  header.set(crypto.getRandomValues(new Uint8Array(SALT_BYTES)), MAGIC.length + 1);
  header.set(crypto.getRandomValues(new Uint8Array(IV_BYTES)), MAGIC.length + 1 + SALT_BYTES);
  if (passKey !== undefined) {
    // The KDF travels in the (authenticated) header, so the envelope says how its key was made.
    header[HEADER_BYTES] = KDF_PBKDF2_SHA256;
    new DataView(header.buffer).setUint32(HEADER_BYTES + 1, PASSPHRASE_ITERATIONS);
    header.set(await passphraseSalt(key), HEADER_BYTES + 5);
  }
  const framed = frameHandoff(plaintext, { ...checked.data, byte_length: plaintext.length }, options.trailing);
  const aesKey = await deriveKey(mixedSecret(secret, passKey), saltOf(header), passKey === undefined ? HKDF_INFO : HKDF_V2_INFO);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: ivOf(header), additionalData: header, tagLength: TAG_BYTES * 8 }, aesKey, framed));
  const ciphertext = new Uint8Array(header.length + sealed.length);
  ciphertext.set(header, 0);
  ciphertext.set(sealed, header.length);
  return passKey === undefined ? { ciphertext, key } : { ciphertext, key, passKey };
}

/**
 * Decrypts and verifies an envelope. Every failure is `decrypt_failed` with a message that says
 * which: bad key format, not a handoff envelope, unsupported version N, or authentication failed
 * (wrong key, tampered or truncated data). Nothing unauthenticated is ever returned.
 *
 * @example
 * ```ts
 * const { plaintext, meta } = await openHandoff(bytesFromServer, parsed.key);
 * console.log(meta.file_name, meta.format, meta.created_at);
 * ```
 */
export async function openHandoff(ciphertext: Uint8Array, key: string, passKey?: Uint8Array): Promise<{ plaintext: Uint8Array; meta: EnvelopeMeta; payload: Uint8Array }> {
  const secret = unwrap(parseShareKey(key));
  if (ciphertext.length < MAGIC.length + 1 || MAGIC.some((byte, i) => ciphertext[i] !== byte)) {
    throw notEnvelope("it does not start with the handoff envelope marker");
  }
  const version = ciphertext[MAGIC.length];
  if (version !== ENVELOPE_VERSION && version !== PASSPHRASE_ENVELOPE_VERSION) {
    throw new HandoffError("decrypt_failed", `unsupported envelope version ${version}: this client reads versions ${ENVELOPE_VERSION} and ${PASSPHRASE_ENVELOPE_VERSION}`, {
      hint: "upgrade the handoff CLI to one that reads this version",
      details: { version },
    });
  }
  const headerBytes = version === PASSPHRASE_ENVELOPE_VERSION ? HEADER_V2_BYTES : HEADER_BYTES;
  if (ciphertext.length < headerBytes + TAG_BYTES) {
    throw notEnvelope(`only ${ciphertext.length} bytes, shorter than the smallest envelope (${headerBytes + TAG_BYTES} bytes); the download was cut short`);
  }
  const header = plainView(ciphertext.subarray(0, headerBytes));
  if (version === PASSPHRASE_ENVELOPE_VERSION) await checkPassphraseHeader(header, key, passKey);
  else if (passKey !== undefined) throw new HandoffError("decrypt_failed", "this link has no passphrase, but one was given", { hint: "open it without a passphrase" });
  const aesKey = await deriveKey(mixedSecret(secret, passKey), saltOf(header), version === PASSPHRASE_ENVELOPE_VERSION ? HKDF_V2_INFO : HKDF_INFO);
  let framed: Uint8Array;
  try {
    framed = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: ivOf(header), additionalData: header, tagLength: TAG_BYTES * 8 }, aesKey, plainView(ciphertext.subarray(headerBytes))));
  } catch (cause) {
    throw new HandoffError("decrypt_failed", "authentication failed: wrong key, or the data was tampered with or truncated", {
      hint: "check that the share URL is complete and unmodified; if it is, ask the sender for a new link",
      cause,
    });
  }
  const { body, meta, rest } = unwrap(unframeHandoff(framed));
  return { plaintext: body, meta, payload: rest };
}

/**
 * A v2 header's KDF must be the one this version fixes (PBKDF2-SHA-256, 600,000 iterations, the
 * link's derived salt): the reader derived its passphrase key, and the read token, from those
 * before it had the envelope. Without a passphrase key the envelope cannot be opened.
 */
async function checkPassphraseHeader(header: Uint8Array<ArrayBuffer>, key: string, passKey: Uint8Array | undefined): Promise<void> {
  if (passKey === undefined) {
    throw new HandoffError("decrypt_failed", "this share link needs a passphrase", {
      hint: "ask the sender for it; the CLI asks for it at a prompt, or reads it from stdin with --passphrase",
      details: { passphrase: true },
    });
  }
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const salt = header.subarray(HEADER_BYTES + 5, HEADER_BYTES + 5 + PASSPHRASE_SALT_BYTES);
  const expected = await passphraseSalt(key);
  if (header[HEADER_BYTES] !== KDF_PBKDF2_SHA256 || view.getUint32(HEADER_BYTES + 1) !== PASSPHRASE_ITERATIONS || expected.some((byte, i) => salt[i] !== byte)) {
    throw notEnvelope(`its passphrase KDF is not the one envelope v${PASSPHRASE_ENVELOPE_VERSION} fixes (PBKDF2-SHA-256, ${PASSPHRASE_ITERATIONS} iterations, the link's salt)`);
  }
}

// Return type left to inference: Node's types and workerd's name the key type differently.
async function deriveKey(secret: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, info: Uint8Array) {
  // The secret is already uniformly random; HKDF with a per-envelope salt still gives a fresh AES
  // key (and so a fresh IV space) even if a secret were ever reused, and binds the version label.
  const base = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info: plainView(info) }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

const saltOf = (header: Uint8Array<ArrayBuffer>) => header.subarray(MAGIC.length + 1, MAGIC.length + 1 + SALT_BYTES);
const ivOf = (header: Uint8Array<ArrayBuffer>) => header.subarray(MAGIC.length + 1 + SALT_BYTES, MAGIC.length + 1 + SALT_BYTES + IV_BYTES);

/** The same bytes as a view WebCrypto's (DOM) types accept: on a plain ArrayBuffer. Copies only a shared one. */
function plainView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : bytes.slice();
}

function notEnvelope(why: string): HandoffError {
  return new HandoffError("decrypt_failed", `not a handoff envelope: ${why}`, {
    hint: "check that the URL points at a handoff on a handoff server",
  });
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}
