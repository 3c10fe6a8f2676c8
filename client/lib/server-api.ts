import { type HandoffMeta, handoffMetaSchema, type TeamListing, teamListingSchema, type ViewLog, viewLogSchema } from "../../shared/api/handoff.js";
import { type PublishResponse, publishResponseSchema, type Scope } from "../../shared/api/publish.js";
import { PROPOSED_ID_HEADER, TEAM_CARD_HEADER } from "../../shared/api/team.js";
import { LINK_TOKEN_HEADER, PASSPHRASE_HEADER, READ_TOKEN_HEADER } from "../../shared/crypto/read-token.js";
import { HandoffError } from "../../shared/errors.js";
import { sameServer } from "../../shared/api/share-url.js";
import type { BoundToken } from "./config.js";
import { errorFromResponse, httpRequest, parseJsonBody } from "../platform/http.js";
import { OWNER_TOKEN_HEADER, VIEWS_LEFT_HEADER } from "../../shared/api/limits.js";
import { type CallOptions, PUBLISH_TIMEOUT_MS, READ_TIMEOUT_MS } from "./call-options.js";

export { type CallOptions, callOptionsFor } from "./call-options.js";

/**
 * The CLI's client of the publishing API (docs/api.md). Every answer is checked against the
 * shared zod schemas; every failure is a HandoffError whose reason the server chose (expired,
 * revoked, exhausted, forbidden, ...) or that names the transport problem.
 */

/** A published body is at most 1 MiB plus envelope overhead on the default server. */
const READ_CAP = 4 * 1024 * 1024;

export interface PublishRequest extends CallOptions {
  /** Seconds; absent: the server's default (7 days on ours). */
  expiresIn?: number;
  maxViews: number | null;
  scope: Scope;
  /** The read token derived from the share key (`deriveReadToken`): the server keeps its hash. */
  readToken: string;
  /** Publish or team token, bound to its server; none for an anonymous-publishing (local) server. */
  token?: BoundToken;
  /** The id the client drew, when a sealed team card names it. */
  proposedId?: string;
  /** A team publish's sealed card (`sealTeamCard`): stored opaquely with the team entry. */
  teamCard?: string;
  /** The link has a passphrase (envelope v2): the server says so when a read token does not match. */
  passphrase?: boolean;
  /** The owner token this client drew and already keeps: the server stores its hash (else it draws one). */
  ownerToken?: string;
  /** A passphrase link's link-alone read token: a read that gives no passphrase is then not counted as a wrong one. */
  linkToken?: string;
}

export async function publishCiphertext(server: string, ciphertext: Uint8Array, request: PublishRequest): Promise<PublishResponse> {
  const query = new URLSearchParams({ scope: request.scope });
  if (request.expiresIn !== undefined) query.set("expires_in", String(request.expiresIn));
  if (request.maxViews !== null) query.set("max_views", String(request.maxViews));
  const headers: Record<string, string> = { "content-type": "application/octet-stream", [READ_TOKEN_HEADER]: request.readToken };
  Object.assign(headers, auth(server, request.token));
  if (request.proposedId !== undefined) headers[PROPOSED_ID_HEADER] = request.proposedId;
  if (request.teamCard !== undefined) headers[TEAM_CARD_HEADER] = request.teamCard;
  if (request.passphrase) headers[PASSPHRASE_HEADER] = "v2";
  if (request.ownerToken !== undefined) headers[OWNER_TOKEN_HEADER] = request.ownerToken;
  if (request.linkToken !== undefined) headers[LINK_TOKEN_HEADER] = request.linkToken;
  const response = await httpRequest(`${server}/v1/handoffs?${query}`, { method: "POST", headers, body: ciphertext, timeoutMs: request.timeoutMs ?? PUBLISH_TIMEOUT_MS, maxBytes: 64 * 1024 });
  if (response.status !== 201) throw errorFromResponse(response, `publishing to ${server} failed`);
  return parseJsonBody(response, publishResponseSchema, "publish");
}

/**
 * The body bytes (one view), and the views left after this read (null: unlimited or not said).
 * `readToken` proves the share key (`deriveReadToken`); the key itself is never sent.
 */
export async function fetchCiphertext(server: string, id: string, readToken: string, teamToken?: BoundToken, call: CallOptions = {}): Promise<{ bytes: Uint8Array; views_left: number | null }> {
  const headers = { ...auth(server, teamToken), [READ_TOKEN_HEADER]: readToken };
  const response = await httpRequest(`${server}/v1/handoffs/${encodeURIComponent(id)}`, { headers, timeoutMs: call.timeoutMs ?? READ_TIMEOUT_MS, maxBytes: READ_CAP });
  if (response.status !== 200) throw readError(errorFromResponse(response, "the share link cannot be read"));
  const left = response.headers.get(VIEWS_LEFT_HEADER);
  return { bytes: response.bytes, views_left: left !== null && /^\d+$/.test(left) ? Number(left) : null };
}

/** Metadata: counts nothing. */
export async function fetchMeta(server: string, id: string, teamToken?: BoundToken, call: CallOptions = {}): Promise<HandoffMeta> {
  const response = await httpRequest(`${server}/v1/handoffs/${encodeURIComponent(id)}/meta`, { headers: auth(server, teamToken), timeoutMs: call.timeoutMs ?? READ_TIMEOUT_MS, maxBytes: 64 * 1024 });
  if (response.status !== 200) throw readError(errorFromResponse(response, "the share link's metadata cannot be read"));
  return parseJsonBody(response, handoffMetaSchema, "metadata");
}

/** The owner's view of a link: its state, views used and left, and when each view happened. Counts nothing. */
export async function fetchViewLog(server: string, id: string, ownerToken: BoundToken, call: CallOptions = {}): Promise<ViewLog> {
  const response = await httpRequest(`${server}/v1/handoffs/${encodeURIComponent(id)}/views`, { headers: auth(server, ownerToken), timeoutMs: call.timeoutMs ?? READ_TIMEOUT_MS, maxBytes: 64 * 1024 });
  if (response.status !== 200) throw errorFromResponse(response, `the view log of ${id} cannot be read`);
  return parseJsonBody(response, viewLogSchema, "view log");
}

/** The owner resets a passphrase link's wrong passphrases, wait and lock; answers its view log after the reset. */
export async function unlockOnServer(server: string, id: string, ownerToken: BoundToken, call: CallOptions = {}): Promise<ViewLog> {
  const response = await httpRequest(`${server}/v1/handoffs/${encodeURIComponent(id)}/unlock`, {
    method: "POST",
    headers: auth(server, ownerToken),
    timeoutMs: call.timeoutMs ?? READ_TIMEOUT_MS,
    maxBytes: 64 * 1024,
  });
  if (response.status !== 200) throw errorFromResponse(response, `resetting the passphrase limit of ${id} failed`);
  return parseJsonBody(response, viewLogSchema, "view log");
}

export async function revokeOnServer(server: string, id: string, ownerToken: BoundToken, call: CallOptions = {}): Promise<void> {
  const response = await httpRequest(`${server}/v1/handoffs/${encodeURIComponent(id)}`, {
    method: "DELETE",
    headers: auth(server, ownerToken),
    timeoutMs: call.timeoutMs ?? READ_TIMEOUT_MS,
    maxBytes: 64 * 1024,
  });
  if (response.status !== 204) throw errorFromResponse(response, `revoking ${id} failed`);
}

/**
 * The Authorization header for a request to `server`: a credential goes only to the server it is
 * bound to. Callers already pick credentials by server; this is the last check before the wire.
 */
function auth(server: string, token: BoundToken | undefined): Record<string, string> {
  if (token === undefined) return {};
  if (!sameServer(server, token.server)) {
    throw new HandoffError("internal", `refusing to send a credential bound to ${token.server} to ${server}`, { hint: "this is a bug; report it" });
  }
  return { authorization: `Bearer ${token.value}` };
}

/** Says plainly what a refused read means for the reader, keeping the server's reason. */
function readError(error: HandoffError): HandoffError {
  // The server's own words say which limit it is (this client, or this link's wrong passphrases):
  // they stay, and the next step is added.
  if (error.reason === "rate_limited") {
    const wait = typeof error.details?.retry_after === "string" ? `${error.details.retry_after} seconds` : "a minute";
    return new HandoffError(error.reason, error.message, {
      hint: `wait ${wait}, then run the same command again (a passphrase link slowed down by wrong tries judges none before then, the right one included)`,
      details: error.details ?? {},
      cause: error,
    });
  }
  if (error.reason === "locked") {
    return new HandoffError(error.reason, error.message, {
      hint: "ask the sender to reset it ('handoff published --unlock <id>') or to revoke it and send you a new link",
      details: error.details ?? {},
      cause: error,
    });
  }
  const plain: Partial<Record<HandoffError["reason"], [string, string]>> = {
    expired: ["this share link has expired", "ask the sender to publish the handoff again"],
    revoked: ["this share link was revoked by its owner", "ask the sender for a new link"],
    exhausted: ["this share link has used up all its views", "ask the sender to publish it again with more views"],
    not_found: ["no handoff exists at this share link (wrong or cut URL, or deleted after expiry)", "check that the whole URL was copied"],
    unauthorized: ["this is a team link and no team token was sent", "set HANDOFF_TEAM_TOKEN with HANDOFF_SERVER naming this server, or a team_token for it in the config file"],
    forbidden: ["this team link belongs to another team than your team token", "ask the sender to share it with your team, or as a link"],
  };
  const entry = plain[error.reason];
  if (!entry) return error;
  return new HandoffError(error.reason, entry[0], { hint: entry[1], details: error.details ?? {}, cause: error });
}

/** `GET /v1/team/handoffs`: the team's live links, metadata only (needs a team token). */
export async function fetchTeamListing(server: string, teamToken: BoundToken, call: CallOptions = {}): Promise<TeamListing> {
  const response = await httpRequest(`${server}/v1/team/handoffs`, { headers: auth(server, teamToken), timeoutMs: call.timeoutMs ?? READ_TIMEOUT_MS, maxBytes: READ_CAP });
  if (response.status !== 200) throw errorFromResponse(response, `listing the team's links on ${server} failed`);
  return parseJsonBody(response, teamListingSchema, "team listing");
}
