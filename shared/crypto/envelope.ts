import { HandoffError, type Result } from "../errors.js";
import { type EnvelopeMeta, type SealMeta, SealMetaSchema, frameHandoff, unframeHandoff } from "./frame.js";
import { newShareKey, parseShareKey } from "./key.js";
import { HEADER_BYTES, IV_BYTES, MAGIC, SALT_BYTES, TAG_BYTES } from "./layout.js";

// The end-to-end envelope: what the server stores is this and nothing else. Layout, KDF and
// threat model: docs/storage.md ("The handoff envelope"). WebCrypto only, so Node 20, workerd and a browser share it.

/** The envelope format this code writes and the only one it reads. A layout change is a bump. */
export const ENVELOPE_VERSION = 1;

/** Binds the derived key to this version and cipher, so a v2 can never reuse a v1 key by accident. */
const HKDF_INFO = new TextEncoder().encode("handoff envelope v1 AES-256-GCM");

export type { EnvelopeMeta, SealMeta } from "./frame.js";

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
export async function sealHandoff(plaintext: Uint8Array, meta: SealMeta, trailing?: Uint8Array): Promise<{ ciphertext: Uint8Array; key: string }> {
  const checked = SealMetaSchema.safeParse(meta);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new HandoffError("invalid_document", `cannot seal the handoff: ${issue?.path.join(".") || "meta"}: ${issue?.message ?? "invalid"}`, {
      details: { issues: checked.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
    });
  }
  const key = newShareKey();
  const secret = unwrap(parseShareKey(key));
  const header = new Uint8Array(HEADER_BYTES);
  header.set(MAGIC, 0);
  header[MAGIC.length] = ENVELOPE_VERSION;
  header.set(crypto.getRandomValues(new Uint8Array(SALT_BYTES)), MAGIC.length + 1);
  header.set(crypto.getRandomValues(new Uint8Array(IV_BYTES)), MAGIC.length + 1 + SALT_BYTES);
  const framed = frameHandoff(plaintext, { ...checked.data, byte_length: plaintext.length }, trailing);
  const aesKey = await deriveKey(secret, saltOf(header));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: ivOf(header), additionalData: header, tagLength: TAG_BYTES * 8 }, aesKey, framed),
  );
  const ciphertext = new Uint8Array(HEADER_BYTES + sealed.length);
  ciphertext.set(header, 0);
  ciphertext.set(sealed, HEADER_BYTES);
  return { ciphertext, key };
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
export async function openHandoff(ciphertext: Uint8Array, key: string): Promise<{ plaintext: Uint8Array; meta: EnvelopeMeta; payload: Uint8Array }> {
  const secret = unwrap(parseShareKey(key));
  if (ciphertext.length < MAGIC.length + 1 || MAGIC.some((byte, i) => ciphertext[i] !== byte)) {
    throw notEnvelope("it does not start with the handoff envelope marker");
  }
  const version = ciphertext[MAGIC.length];
  if (version !== ENVELOPE_VERSION) {
    throw new HandoffError("decrypt_failed", `unsupported envelope version ${version}: this client reads version ${ENVELOPE_VERSION}`, {
      hint: "upgrade the handoff CLI to one that reads this version",
      details: { version },
    });
  }
  if (ciphertext.length < HEADER_BYTES + TAG_BYTES) {
    throw notEnvelope(`only ${ciphertext.length} bytes, shorter than the smallest envelope (${HEADER_BYTES + TAG_BYTES} bytes); the download was cut short`);
  }
  const header = plainView(ciphertext.subarray(0, HEADER_BYTES));
  const aesKey = await deriveKey(secret, saltOf(header));
  let framed: Uint8Array;
  try {
    framed = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: ivOf(header), additionalData: header, tagLength: TAG_BYTES * 8 },
        aesKey,
        plainView(ciphertext.subarray(HEADER_BYTES)),
      ),
    );
  } catch (cause) {
    throw new HandoffError("decrypt_failed", "authentication failed: wrong key, or the data was tampered with or truncated", {
      hint: "check that the share URL is complete and unmodified; if it is, ask the sender for a new link",
      cause,
    });
  }
  const { body, meta, rest } = unwrap(unframeHandoff(framed));
  return { plaintext: body, meta, payload: rest };
}

// Return type left to inference: Node's types and workerd's name the key type differently.
async function deriveKey(secret: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>) {
  // The secret is already uniformly random; HKDF with a per-envelope salt still gives a fresh AES
  // key (and so a fresh IV space) even if a secret were ever reused, and binds the version label.
  const base = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info: HKDF_INFO }, base, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

const saltOf = (header: Uint8Array<ArrayBuffer>) => header.subarray(MAGIC.length + 1, MAGIC.length + 1 + SALT_BYTES);
const ivOf = (header: Uint8Array<ArrayBuffer>) => header.subarray(MAGIC.length + 1 + SALT_BYTES, HEADER_BYTES);

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
