/**
 * Ids and bearer tokens of the publishing API: generated from the platform CSPRNG, stored only as
 * SHA-256 hashes, compared in constant time, and checked for shape before anything else looks at
 * them (so a malformed value is a 401, never a crash deeper down).
 *
 * A token carries a kind prefix (`hdo_` owner, `hdt_` team, `hdp_` publish) so people and secret
 * scanners recognise it, and so a token of one kind can never be mistaken for another.
 */
import { decodeBase64Url, encodeBase64Url, randomBase64Url } from "./base64url.js";
import { ID_BYTES } from "./handoff-id.js";

/** 32 random bytes (256 bits) = 43 base64url characters after the prefix. */
export const TOKEN_BYTES = 32;

export const TOKEN_PREFIX = { owner: "hdo_", team: "hdt_", publish: "hdp_" } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

const TOKEN_PATTERN = /^hd([otp])_([A-Za-z0-9_-]{43})$/;
const KIND_BY_LETTER: Record<string, TokenKind> = { o: "owner", t: "team", p: "publish" };

/**
 * A fresh handoff id: 128 bits, base64url, safe in a URL path.
 *
 * @example
 * ```ts
 * newHandoffId() // "q3Jf0wS5b1mCq2o9X0aZ4w"
 * ```
 */
export function newHandoffId(): string {
  // Never a leading '-': `handoff revoke <id>` would read it as a flag. Redrawing the 1 in 64 ids
  // that start with one keeps 128 random bits but for that first character's tiny bias.
  for (;;) {
    const id = randomBase64Url(ID_BYTES);
    if (!id.startsWith("-")) return id;
  }
}

/**
 * A fresh bearer token of `kind`: its prefix and 256 random bits.
 *
 * @example
 * ```ts
 * newToken("owner") // "hdo_3mT…" (4 + 43 characters)
 * ```
 */
export function newToken(kind: TokenKind): string {
  return TOKEN_PREFIX[kind] + randomBase64Url(TOKEN_BYTES);
}

/**
 * The kind of a well-formed token, or undefined for anything else (wrong prefix, wrong length,
 * characters outside base64url, non-canonical encoding).
 *
 * @example
 * ```ts
 * tokenKind(newToken("team")) // "team"
 * tokenKind("hdt_short") // undefined
 * ```
 */
export function tokenKind(value: string): TokenKind | undefined {
  const match = TOKEN_PATTERN.exec(value);
  if (!match || decodeBase64Url(match[2]!)?.length !== TOKEN_BYTES) return undefined;
  return KIND_BY_LETTER[match[1]!];
}

/**
 * The credential in an `Authorization: Bearer <token>` header: `undefined` when there is no
 * header, `null` when there is one but it is not a single bearer credential.
 *
 * @example
 * ```ts
 * bearerToken("Bearer hdo_abc") // "hdo_abc"
 * bearerToken("Basic dXNlcg==") // null
 * bearerToken(undefined) // undefined
 * ```
 */
export function bearerToken(header: string | null | undefined): string | null | undefined {
  if (header === null || header === undefined) return undefined;
  const match = /^Bearer +([!-~]+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * SHA-256 of the UTF-8 text, base64url (43 characters): how tokens are stored and keyed.
 *
 * @example
 * ```ts
 * await sha256Base64Url("abc") // "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"
 * ```
 */
export async function sha256Base64Url(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return encodeBase64Url(new Uint8Array(digest));
}

/**
 * Compares two strings without an early exit, so the time taken does not reveal how many leading
 * characters match. Meant for equal-length values such as two SHA-256 hashes; a length mismatch
 * is still answered after a full pass.
 *
 * @example
 * ```ts
 * constantTimeEqual(await sha256Base64Url(presented), storedHash) // true or false
 * ```
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}
