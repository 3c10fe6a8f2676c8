import { decodeBase64Url } from "./base64url.js";

/** 16 random bytes (128 bits) = 22 base64url characters: what the server issues, nothing else. */
export const ID_BYTES = 16;
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The one check of a handoff id, used by the worker's routes, share-link parsing and the local
 * published records alike: exactly 22 canonical base64url characters (16 bytes). Safe as a file name.
 *
 * @example
 * ```ts
 * isHandoffId("q3Jf0wS5b1mCq2o9X0aZ4w") // true
 * isHandoffId("../etc/passwd") // false
 * ```
 */
export function isHandoffId(value: string): boolean {
  return ID_PATTERN.test(value) && decodeBase64Url(value)?.length === ID_BYTES;
}
