import { homedir } from "node:os";
import { openHandoff } from "../../shared/crypto/envelope.js";
import { deriveReadToken } from "../../shared/crypto/read-token.js";
import { HandoffError } from "../../shared/errors.js";
import { parseShareUrl } from "../../shared/share-url.js";
import { resolvePublishConfig } from "../config.js";
import type { Io } from "../io.js";
import { callOptionsFor, fetchCiphertext, fetchMeta } from "../publish/server-api.js";

/**
 * Share links (`<server>/h/<id>#<key>`): fetched (one view), decrypted and verified here; the
 * plaintext then goes through the same orientation as a file. Other URLs return undefined and
 * are fetched as plain documents.
 */
export async function readShareUrl(url: string, io: Io): Promise<Uint8Array | undefined> {
  const share = parseShareUrl(url);
  if (!share.ok) return undefined;
  const { server, id, key } = share.value;
  if (key === undefined) {
    throw new HandoffError("decrypt_failed", "this share link has no #key part, so it cannot be decrypted", {
      hint: "copy the whole link, including everything after '#' (quote it in the shell)",
    });
  }
  const teamToken = await teamTokenFor(server, io);
  const ciphertext = await fetchCiphertext(server, id, await deriveReadToken(key), teamToken, callOptionsFor(io.env));
  const { plaintext } = await openHandoff(ciphertext, key);
  return plaintext;
}

/** `resume URL --peek`: the link's metadata, without spending a view (and without the key). */
export async function peekShareUrl(url: string, io: Io) {
  const share = parseShareUrl(url);
  if (!share.ok) throw share.error;
  const { server, id } = share.value;
  return fetchMeta(server, id, await teamTokenFor(server, io), callOptionsFor(io.env));
}

/** A teammate's client sends its team token, but only to the server it is configured for. */
export async function teamTokenFor(server: string, io: Io): Promise<string | undefined> {
  const config = await resolvePublishConfig({ flags: { server }, env: io.env, home: io.env.HOME ?? homedir() });
  return config.teamToken;
}
