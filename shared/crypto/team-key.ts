import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError, type Result, err, ok } from "../errors.js";

// The team key: 256 random bits made on a client and handed to members inside an invite, never
// sent to the server. It seals each team entry's card and wrapped share key (team-card.ts).
// Format and rotation: docs/storage.md ("The team key and its ring").

/** Bytes of a team key: 256 bits, as for a share key. */
export const TEAM_KEY_BYTES = 32;
/** Characters of a team key's base64url spelling. */
export const TEAM_KEY_LENGTH = 43;
/** Characters of a key id: 9 bytes of HKDF output, base64url. */
export const TEAM_KEY_ID_LENGTH = 12;

/** A distinct HKDF label, so the id says nothing about the card key derived from the same secret. */
const KEY_ID_INFO = new TextEncoder().encode("handoff team key id v1");

export interface TeamKey {
  /** Names the key in a sealed card, so a reader knows which ring entry to try. */
  id: string;
  /** The secret, base64url (43 characters). */
  key: string;
}

/**
 * Decodes a team key. A key of the wrong length or spelling is an error that never echoes it.
 *
 * @example
 * ```ts
 * parseTeamKey("too-short") // err(invalid_document: "a team key must be 43 base64url characters (256 bits), got 9 characters")
 * ```
 */
export function parseTeamKey(key: string): Result<Uint8Array<ArrayBuffer>> {
  const bytes = key.length === TEAM_KEY_LENGTH ? decodeBase64Url(key) : undefined;
  if (bytes === undefined || bytes.length !== TEAM_KEY_BYTES) {
    const got = /^[A-Za-z0-9_-]*$/.test(key) ? `${key.length} characters` : "characters outside base64url";
    return err(new HandoffError("invalid_document", `a team key must be ${TEAM_KEY_LENGTH} base64url characters (256 bits), got ${got}`));
  }
  return ok(bytes);
}

/**
 * The id of a team key: HKDF-SHA-256(key, no salt, "handoff team key id v1"), 9 bytes, base64url.
 * Derived, not chosen, so a ring entry whose id and key disagree is detected.
 *
 * @example
 * ```ts
 * await teamKeyId(key) // "Q0xN3v7pTzc_"
 * ```
 */
export async function teamKeyId(key: string): Promise<string> {
  const secret = parseTeamKey(key);
  if (!secret.ok) throw secret.error;
  const base = await crypto.subtle.importKey("raw", secret.value, "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: KEY_ID_INFO }, base, 72);
  return encodeBase64Url(new Uint8Array(bits));
}

/**
 * A fresh team key from the platform CSPRNG, with its id.
 *
 * @example
 * ```ts
 * const { id, key } = await newTeamKey(); // key: 43 characters, never sent to a server
 * ```
 */
export async function newTeamKey(): Promise<TeamKey> {
  const key = encodeBase64Url(crypto.getRandomValues(new Uint8Array(TEAM_KEY_BYTES)));
  return { id: await teamKeyId(key), key };
}

/**
 * Checks a key ring entry: a well-formed key whose id is the one derived from it. `where` names
 * the entry in the message (a config file, an invite).
 *
 * @example
 * ```ts
 * const bad = await checkTeamKey({ id: "x", key }, "the team key ring in config.json");
 * if (bad) throw bad;
 * ```
 */
export async function checkTeamKey(entry: TeamKey, where: string): Promise<HandoffError | undefined> {
  const secret = parseTeamKey(entry.key);
  if (!secret.ok) return new HandoffError("invalid_document", `${where}: key ${entry.id}: ${secret.error.message}`, { hint: "copy the invite again, or remove that key from the ring" });
  if ((await teamKeyId(entry.key)) !== entry.id) {
    return new HandoffError("invalid_document", `${where}: key ${entry.id} does not match its id (the key or the id was changed)`, { hint: "copy the invite again, or remove that key from the ring" });
  }
  return undefined;
}
