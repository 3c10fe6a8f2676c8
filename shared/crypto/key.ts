import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError, type Result, err, ok } from "../errors.js";

/** Bytes of secret behind every share link: 256 bits. */
export const SECRET_BYTES = 32;

/** Characters of the base64url spelling of the secret, as it appears after `#` in a share URL. */
export const KEY_LENGTH = 43;

/**
 * A fresh share-link secret from the platform CSPRNG, as the base64url text that goes in the URL fragment.
 *
 * @example
 * ```ts
 * const key = newShareKey(); // "q3Jx...": 43 characters, 256 bits
 * ```
 */
export function newShareKey(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/**
 * Decodes a share-link key. A malformed key is `decrypt_failed` whether it comes from a URL
 * or an API call, so a truncated paste reads the same everywhere. The message never echoes
 * the key: it is the secret.
 *
 * @example
 * ```ts
 * const r = parseShareKey(url.slice(url.indexOf("#") + 1));
 * if (!r.ok) throw r.error; // "bad key format: expected 43 base64url characters, got 41"
 * ```
 */
export function parseShareKey(key: string): Result<Uint8Array<ArrayBuffer>> {
  const bytes = key.length === KEY_LENGTH ? decodeBase64Url(key) : undefined;
  if (bytes === undefined || bytes.length !== SECRET_BYTES) {
    // 43 base64url characters whose last one carries bits a 32-byte key cannot have: edited, not cut.
    if (key.length === KEY_LENGTH && /^[A-Za-z0-9_-]*$/.test(key)) {
      return err(
        new HandoffError(
          "decrypt_failed",
          `bad key format: the ${KEY_LENGTH} characters after '#' are not a canonical base64url key (its last character cannot end a 32-byte key), so the link was changed after it was made`,
          {
            hint: "copy the share URL again from where it was sent, unchanged",
          },
        ),
      );
    }
    const got = /^[A-Za-z0-9_-]*$/.test(key) ? `${key.length} characters` : "characters outside base64url";
    return err(
      new HandoffError("decrypt_failed", `bad key format: expected ${KEY_LENGTH} base64url characters after '#', got ${got}`, {
        hint: "copy the whole share URL, including everything after '#'",
      }),
    );
  }
  return ok(bytes);
}
