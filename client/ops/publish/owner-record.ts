import { DEFAULT_EXPIRY_BOUNDS } from "../../../shared/api/limits.js";
import { HandoffError, isHandoffError } from "../../../shared/errors.js";
import type { PublishResponse } from "../../../shared/api/publish.js";
import { recordTimestamp } from "../../../shared/time/timestamps.js";
import { type PublishedRecord, forgetPending, savePublished } from "../../lib/published-store.js";
import { type CallOptions, revokeOnServer } from "../../lib/server-api.js";

// The owner token of a link is kept on this machine before the link can exist: the client draws
// the token, writes a pending record holding it, and only then sends the publish with that token
// (Handoff-Owner-Token). A full or read-only config folder therefore stops the publish before a
// byte is sent, and a record that cannot be completed afterwards still holds what `handoff
// revoke` needs. A server that ignores the header (older) draws its own token: if that one cannot
// be kept, the link is revoked at once rather than left live with no way to end it.
// docs/storage.md ("Local files around publishing").

export interface OwnerRecordInput {
  configDir: string;
  server: string;
  path: string;
  /** The share page of an id, without its #key. */
  urlOf: (id: string) => string;
  expiresIn: number | undefined;
  maxViews: number | null;
  scope: PublishedRecord["scope"];
  createdAt: string;
  title: string | undefined;
  now: Date;
  /** The command that publishes the same file again. */
  retry: string;
}

/** Why a record could not be written, for a message: the OS's words, not a stack. */
const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The folder's hint: what to do so the next publish can keep its owner token. */
const folderHint = (configDir: string) => `free space in ${configDir}/published, or make it writable (it holds the owner tokens that revoke your links)`;

/**
 * Writes the pending record of `id` with `ownerToken` (its expiry an upper bound until the server
 * answers). A failure is an `io_failed` error saying that nothing was published.
 */
export async function keepPending(input: OwnerRecordInput, id: string, ownerToken: string): Promise<string[]> {
  const expiresIn = input.expiresIn ?? DEFAULT_EXPIRY_BOUNDS.max;
  try {
    return await savePublished(input.configDir, {
      ...recordBase(input, id),
      owner_token: ownerToken,
      expires_at: recordTimestamp(new Date(input.now.getTime() + expiresIn * 1000)),
      max_views: input.maxViews,
      scope: input.scope,
      pending: true,
    });
  } catch (error) {
    throw new HandoffError("io_failed", `could not keep the owner token of the new link (${why(error)}), so nothing was published`, {
      hint: folderHint(input.configDir),
      details: { owner_record: "not_written" },
      cause: error,
    });
  }
}

/**
 * After a failed publish request: the pending record goes when the server clearly refused it
 * (nothing was stored), and stays when the request may have reached it (no answer, a 5xx), so
 * `handoff revoke <id>` can end a link that was stored after all. Returns what to add to the
 * error's message, if anything.
 */
export async function afterFailedPublish(input: OwnerRecordInput, id: string, error: unknown): Promise<string> {
  if (isHandoffError(error) && error.details?.owner_record === "not_written") return "";
  if (isHandoffError(error) && (error.reason === "network" || error.reason === "server_error") && !neverSent(error)) {
    return ` (if the request reached the server after all, 'handoff revoke ${id}' ends that link: its owner token was kept)`;
  }
  await forgetPending(input.configDir, id);
  return "";
}

/** A connection that was never made (refused, no such host): the request cannot have reached a server. */
function neverSent(error: HandoffError): boolean {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

/**
 * Completes the record from the server's answer. When the server took this client's owner token,
 * a failure leaves the pending record (which holds the token) and is a warning. When it drew its
 * own (an older server), a token that cannot be kept ends the link: it is revoked at once, and
 * the publish fails with what happened.
 */
export async function completeRecord(input: OwnerRecordInput, published: PublishResponse, proposed: { id: string; ownerToken: string }, call: CallOptions): Promise<string[]> {
  const record: PublishedRecord = {
    ...recordBase(input, published.id),
    owner_token: published.owner_token,
    expires_at: published.expires_at,
    max_views: published.max_views,
    scope: published.scope,
  };
  try {
    const warnings = await savePublished(input.configDir, record);
    if (published.id !== proposed.id) await forgetPending(input.configDir, proposed.id);
    return warnings;
  } catch (error) {
    if (published.id === proposed.id && published.owner_token === proposed.ownerToken) {
      return [`could not complete the local record of ${published.id} (${why(error)}); the record written before the publish keeps its owner token, so 'handoff revoke ${published.id}' works`];
    }
    return revokeUnkept(input, published, error, call);
  }
}

/** The link's owner token could not be kept anywhere: the link is revoked now, or the user is told how to revoke it. */
async function revokeUnkept(input: OwnerRecordInput, published: PublishResponse, cause: unknown, call: CallOptions): Promise<never> {
  try {
    await revokeOnServer(input.server, published.id, { value: published.owner_token, server: input.server }, call);
  } catch (revokeError) {
    throw new HandoffError(
      "io_failed",
      `could not keep the owner token of ${published.id} (${why(cause)}), and revoking that link failed too (${why(revokeError)}): it stays readable until it expires or its views are used; the local handoff is kept: ${input.path}`,
      {
        hint: `revoke it by hand while it is live: curl -X DELETE -H 'Authorization: Bearer ${published.owner_token}' ${input.server}/v1/handoffs/${published.id}`,
        details: { path: input.path, id: published.id, owner_record: "not_written", revoked: false },
        cause,
      },
    );
  }
  throw new HandoffError(
    "io_failed",
    `could not keep the owner token of ${published.id} (${why(cause)}), so that link was revoked rather than left live with no way to end it; the local handoff is kept: ${input.path}`,
    { hint: `${folderHint(input.configDir)}, then retry: ${input.retry}`, details: { path: input.path, id: published.id, owner_record: "not_written", revoked: true }, cause },
  );
}

function recordBase(input: OwnerRecordInput, id: string) {
  return {
    id,
    server: input.server,
    url_without_key: input.urlOf(id),
    created_at: input.createdAt,
    local_path: input.path,
    ...(input.title !== undefined ? { title: input.title } : {}),
  };
}
