import { openHandoff } from "../../shared/crypto/envelope.js";
import { derivePassphraseKey } from "../../shared/crypto/passphrase.js";
import { readPayload } from "../../shared/crypto/payload.js";
import { deriveReadToken } from "../../shared/crypto/read-token.js";
import { HandoffError, isHandoffError } from "../../shared/errors.js";
import { parseShareUrl } from "../../shared/api/share-url.js";
import type { BoundToken } from "./config.js";
import type { RunContext } from "./run-context.js";
import { fetchCiphertext, fetchMeta } from "./server-api.js";

/**
 * A passphrase link's passphrase: `given` (read before the fetch), else `ask`, which a front end
 * with a terminal provides (the run context has no stdin); without either, the error says how.
 */
export interface PassphraseSource {
  given?: string;
  ask?: () => Promise<string>;
}

/**
 * Share links (`<server>/h/<id>#<key>`): fetched (one view), decrypted and verified here; the
 * plaintext then goes through the same orientation as a file. Other URLs return undefined and
 * are fetched as plain documents.
 *
 * Whoever wrote the link chose its server, so only a team token bound to that very server is
 * sent; a link on a server this machine has no credential for is read anonymously.
 */
export async function readShareUrl(url: string, ctx: RunContext, passphrase: PassphraseSource = {}): Promise<{ plaintext: Uint8Array; changes?: Uint8Array; views_left: number | null } | undefined> {
  const share = parseShareUrl(url);
  // A link to a share page with a damaged id or key is still a share link: fetching it as a
  // document would print the page's HTML as if it were the handoff.
  if (!share.ok) {
    if (looksLikeSharePath(url)) throw share.error;
    return undefined;
  }
  const { server, id, key } = share.value;
  if (key === undefined) {
    throw new HandoffError("decrypt_failed", "this share link has no #key part, so it cannot be decrypted", {
      hint: "copy the whole link, including everything after '#' (quote it in the shell)",
    });
  }
  const teamToken = await teamTokenFor(server, ctx);
  const read = async (passphrase: string | undefined) => {
    const passKey = passphrase === undefined ? undefined : await derivePassphraseKey(key, passphrase);
    const readToken = await deriveReadToken(key, passKey);
    const fetched = await ctx.progress(
      `reading ${server}/h/${id} (waiting for the server)...`,
      withCredentialHint(server, teamToken, () => fetchCiphertext(server, id, readToken, teamToken, ctx.http())),
    );
    // Either envelope version (with or without a passphrase) carries either payload format.
    const payload = readPayload(await openHandoff(fetched.bytes, key, passKey));
    if (!payload.ok) throw payload.error;
    const { document, changes } = payload.value;
    return { plaintext: document, ...(changes ? { changes } : {}), views_left: fetched.views_left };
  };
  try {
    return await read(passphrase.given);
  } catch (error) {
    // The server refused the read token of a passphrase link: no view was spent. Given none, ask
    // on a terminal and try once more; otherwise say which it was.
    if (!isHandoffError(error) || error.reason !== "decrypt_failed" || error.details?.passphrase !== true) throw error;
    if (passphrase.given !== undefined) {
      throw new HandoffError("decrypt_failed", "wrong passphrase: the server refused the read token it gives (422); no view was spent", {
        hint: "check the passphrase with the sender",
        details: { passphrase: true },
        cause: error,
      });
    }
    if (passphrase.ask === undefined) {
      throw new HandoffError("decrypt_failed", "this share link needs a passphrase; no view was spent", {
        hint: "give the URL and then the passphrase on stdin (printf '%s\\n%s' \"$URL\" \"$PASSPHRASE\" | handoff resume --url-stdin --passphrase), or run 'handoff resume --paste' on a terminal to be asked for both",
        details: { passphrase: true },
        cause: error,
      });
    }
    return readShareUrl(url, ctx, { given: await passphrase.ask() });
  }
}

/** `resume URL --peek`: the link's metadata, without spending a view (and without the key). */
export async function peekShareUrl(url: string, ctx: RunContext) {
  // Metadata needs no key: a damaged #key is no reason to refuse a peek.
  const share = parseShareUrl(url.replace(/#.*$/s, ""));
  if (!share.ok) throw share.error;
  const { server, id } = share.value;
  const teamToken = await teamTokenFor(server, ctx);
  return withCredentialHint(server, teamToken, () => fetchMeta(server, id, teamToken, ctx.http()));
}

/**
 * The team token bound to `server`, if this machine has one; config warnings (a token file others
 * could read) go to the run's warnings, so they are shown on every command that reads the config.
 */
export async function teamTokenFor(server: string, ctx: RunContext): Promise<BoundToken | undefined> {
  return (await ctx.credentials(server)).teamToken;
}

/** A 401 when nothing was sent means this machine has no credential for that server: say so. */
async function withCredentialHint<T>(server: string, sent: BoundToken | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isHandoffError(error) || error.reason !== "unauthorized") throw error;
    if (sent !== undefined) {
      throw new HandoffError("unauthorized", `the team token bound to ${server} was refused`, {
        hint: "it may be revoked or mistyped; ask your operator for a new one",
        details: { ...error.details, server },
        cause: error,
      });
    }
    throw new HandoffError("unauthorized", `no credential for ${server}: this is a team link and no team token was sent`, {
      hint: `if you are on that team, set HANDOFF_TEAM_TOKEN together with HANDOFF_SERVER=${server}, or add a "team_token" for ${server} to the config file (docs/cli.md)`,
      details: { ...error.details, server },
      cause: error,
    });
  }
}

function looksLikeSharePath(url: string): boolean {
  try {
    return /\/(?:h|v1\/handoffs)\/[^/]+\/?$/.test(new URL(url.trim()).pathname);
  } catch {
    return false;
  }
}
