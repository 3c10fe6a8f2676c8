/**
 * base64url without padding (RFC 4648 §5), for ids, tokens and keys in URLs.
 *
 * @example
 * ```ts
 * encodeBase64Url(new Uint8Array([251, 255])) // "-_8"
 * decodeBase64Url("-_8") // Uint8Array [251, 255]
 * ```
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes unpadded base64url; returns undefined for anything that is not canonical base64url. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // Reject non-canonical encodings (stray low bits), so one value has exactly one spelling.
  return encodeBase64Url(bytes) === text ? bytes : undefined;
}

/** `n` random bytes from the platform CSPRNG, base64url-encoded (16 bytes = 128 bits = 22 chars). */
export function randomBase64Url(n: number): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(n)));
}
