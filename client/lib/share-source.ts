import { openHandoff } from "../../shared/crypto/envelope.js";
import { derivePassphraseKey } from "../../shared/crypto/passphrase.js";
import { readPayload } from "../../shared/crypto/payload.js";
import { deriveReadToken } from "../../shared/crypto/read-token.js";
import { HandoffError, isHandoffError } from "../../shared/errors.js";
import { parseShareUrl } from "../../shared/api/share-url.js";
import type { BoundToken } from "./config.js";
import type { RunContext } from "./run-context.js";
import type { HandoffMeta } from "../../shared/api/handoff.js";
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
/** What reading a share link gave; `local` when it came from the copy kept on this machine (no view spent). */
export interface SharedRead {
  plaintext: Uint8Array;
  changes?: Uint8Array;
  views_left: number | null;
  local?: LocalCopyFacts;
}

/** Where the decrypted copy of a link is kept, since when and until when; `view_spent` says whether this read cost one. */
export interface LocalCopyFacts {
  path: string;
  opened_at: string;
  keep_until: string;
  view_spent: boolean;
}

/**
 * `keep`: keep what the read returned decrypted on this machine (opened-copy.ts), so reading the
 * link again until the copy expires spends no view; resume asks for it. A kept copy of the link is
 * always read first, whoever asks.
 */
export async function readShareUrl(url: string, ctx: RunContext, passphrase: PassphraseSource = {}, options: { keep?: boolean } = {}): Promise<SharedRead | undefined> {
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
  const { dropOpenedCopy, keepOpenedCopy, readOpenedCopy, sweepOpenedCopies } = await import("./opened-copy.js");
  sweepOpenedCopies(ctx.env, ctx.now());
  const teamToken = await teamTokenFor(server, ctx);
  const kept = await readOpenedCopy(ctx.env, server, id, key, ctx.now());
  if (kept) {
    // A revoked or deleted link takes its copy with it: asked without spending a view. A link whose
    // views are used up is what the copy is for, and an unreachable server does not stop it.
    await fetchMeta(server, id, teamToken, ctx.http()).catch((error: unknown) => {
      if (!isHandoffError(error) || !["revoked", "expired", "not_found"].includes(error.reason)) return;
      dropOpenedCopy(kept.path);
      throw error;
    });
    const local = { path: kept.path, opened_at: kept.opened_at, keep_until: kept.keep_until, view_spent: false };
    return { plaintext: kept.document, ...(kept.changes ? { changes: kept.changes } : {}), views_left: kept.views_left, local };
  }
  const keep = async (read: SharedRead): Promise<SharedRead> => {
    if (!options.keep) return read;
    // The link's expiry bounds the copy; asking for it spends no view (a used-up link no longer answers: a day then).
    const expires = await fetchMeta(server, id, teamToken, ctx.http()).then(
      (meta) => meta.expires_at,
      () => undefined,
    );
    try {
      const copy = keepOpenedCopy(ctx.env, { server, id, key }, { document: read.plaintext, ...(read.changes ? { changes: read.changes } : {}), views_left: read.views_left }, ctx.now(), expires);
      return { ...read, local: { path: copy.path, opened_at: copy.opened_at, keep_until: copy.keep_until, view_spent: true } };
    } catch (error) {
      ctx.warn(`the link was read (one view), but no local copy could be kept, so reading it again spends another view: ${error instanceof Error ? error.message : String(error)}`);
      return read;
    }
  };
  const read = async (passphrase: string | undefined): Promise<SharedRead> => {
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
    return await keep(await read(passphrase.given));
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
    return readShareUrl(url, ctx, { given: await passphrase.ask() }, options);
  }
}

/**
 * `resume URL --peek`: the link's metadata, without spending a view (and without the key), and
 * the decrypted copy this machine keeps of it, if any (found by the key, when the URL has one).
 */
export async function peekShareUrl(url: string, ctx: RunContext): Promise<HandoffMeta & { local_copy?: Omit<LocalCopyFacts, "view_spent"> }> {
  // Metadata needs no key: a damaged #key is no reason to refuse a peek.
  const share = parseShareUrl(url.replace(/#.*$/s, ""));
  if (!share.ok) throw share.error;
  const { server, id } = share.value;
  const teamToken = await teamTokenFor(server, ctx);
  const meta = await withCredentialHint(server, teamToken, () => fetchMeta(server, id, teamToken, ctx.http()));
  const key = parseShareUrl(url);
  if (!key.ok || key.value.key === undefined) return meta;
  const { readOpenedCopy } = await import("./opened-copy.js");
  const kept = await readOpenedCopy(ctx.env, server, id, key.value.key, ctx.now());
  return kept ? { ...meta, local_copy: { path: kept.path, opened_at: kept.opened_at, keep_until: kept.keep_until } } : meta;
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
