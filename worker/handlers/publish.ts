import { type PublishResponse, parsePublishOptions } from "../../shared/api/publish.js";
import { PROPOSED_ID_HEADER, TEAM_CARD_HEADER } from "../../shared/api/team.js";
import { LINK_TOKEN_HEADER, PASSPHRASE_HEADER, READ_TOKEN_HEADER, isReadToken } from "../../shared/crypto/read-token.js";
import { sealedCardProblem } from "../../shared/crypto/team-card-shape.js";
import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import { newHandoffId, newToken, sha256Base64Url, tokenKind } from "../../shared/ids/tokens.js";
import { OWNER_TOKEN_HEADER } from "../../shared/api/limits.js";
import type { AppContext } from "../bindings.js";
import { readConfig } from "../config.js";
import { type Credential, resolveCredential } from "../http/auth.js";
import { readBoundedBody } from "../http/body.js";
import { putBody } from "../storage/bodies-r2.js";
import { accessFor, teamFor } from "../storage/durable-objects.js";
import { putExpiryMarker } from "../storage/expiry-index.js";
import { putTeamEntry } from "../storage/meta-kv.js";

// A collision of 128-bit ids will not happen; the bound only keeps a broken RNG from looping.
const MAX_ID_ATTEMPTS = 3;

function requireMayPublish(credential: Credential, anonymousAllowed: boolean, scope: "link" | "team"): void {
  if (credential.kind === "anonymous" && !anonymousAllowed) {
    throw new HandoffError("unauthorized", "this server does not accept anonymous publishing", {
      hint: "send 'Authorization: Bearer <publish or team token>' from your operator",
    });
  }
  if (scope === "team" && credential.kind === "anonymous") {
    throw new HandoffError("unauthorized", "scope=team needs a team token", { hint: "send 'Authorization: Bearer <team token>'" });
  }
  if (scope === "team" && credential.kind !== "team") throw new HandoffError("forbidden", "scope=team needs a team token, not a publish token");
}

/**
 * The read token's hash from a publish: every new link is key-bound, so a publish without a
 * well-formed token (an older client) is refused rather than stored readable by id.
 */
async function readTokenHash(header: string | undefined): Promise<string> {
  if (header === undefined || !isReadToken(header)) {
    throw new HandoffError("invalid_option", `publishing needs a ${READ_TOKEN_HEADER} header: ${header === undefined ? "none was sent" : "it is not 43 base64url characters"}`, {
      hint: 'update the handoff CLI; an API client derives the token from the share key (docs/storage.md, "The read token")',
      details: { option: READ_TOKEN_HEADER },
    });
  }
  return sha256Base64Url(header);
}

/**
 * The sealed team card of a publish, checked for shape and size only (the server has no team key
 * to open it): only a team-scope publish may carry one. A bad card stores nothing.
 */
function teamCardOf(header: string | undefined, scope: "link" | "team"): string | null {
  if (header === undefined) return null;
  if (scope !== "team") {
    throw new HandoffError("invalid_option", `${TEAM_CARD_HEADER} goes with scope=team only`, { details: { option: TEAM_CARD_HEADER } });
  }
  const problem = sealedCardProblem(header);
  if (problem !== undefined)
    throw new HandoffError("invalid_option", `${TEAM_CARD_HEADER}: ${problem}`, {
      hint: 'update the handoff CLI; the format is in docs/storage.md ("The team card")',
      details: { option: TEAM_CARD_HEADER },
    });
  return header;
}

/** The id a client chose (a sealed card names it), or undefined: the server draws one. */
function proposedIdOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!isHandoffId(header)) throw new HandoffError("invalid_option", `${PROPOSED_ID_HEADER} must be 22 base64url characters (128 random bits)`, { details: { option: PROPOSED_ID_HEADER } });
  return header;
}

/**
 * The hash of a passphrase link's link-alone read token (`Handoff-Link-Token`), so a read without
 * the passphrase is not counted as a wrong one; none for a publish that sends none. Only a
 * passphrase link may carry one.
 */
async function linkTokenHash(header: string | undefined, passphrase: boolean): Promise<string | undefined> {
  if (header === undefined) return undefined;
  if (!passphrase) throw new HandoffError("invalid_option", `${LINK_TOKEN_HEADER} goes with ${PASSPHRASE_HEADER}: v2 only`, { details: { option: LINK_TOKEN_HEADER } });
  if (!isReadToken(header)) throw new HandoffError("invalid_option", `${LINK_TOKEN_HEADER} must be 43 base64url characters`, { details: { option: LINK_TOKEN_HEADER } });
  return sha256Base64Url(header);
}

/**
 * The owner token a client drew and already keeps (so a link never exists that its owner cannot
 * revoke), or a fresh one when it sent none.
 */
function ownerTokenOf(header: string | undefined): string {
  if (header === undefined) return newToken("owner");
  if (tokenKind(header) !== "owner") {
    throw new HandoffError("invalid_option", `${OWNER_TOKEN_HEADER} must be an owner token: 'hdo_' and 43 base64url characters (256 random bits)`, { details: { option: OWNER_TOKEN_HEADER } });
  }
  return header;
}

/** Whether the link has a passphrase: `Handoff-Passphrase: v2` (the only scheme), absent for none. */
function passphraseOf(header: string | undefined): boolean {
  if (header === undefined) return false;
  if (header !== "v2") throw new HandoffError("invalid_option", `${PASSPHRASE_HEADER} must be 'v2' (PBKDF2-SHA-256, envelope v2)`, { details: { option: PASSPHRASE_HEADER } });
  return true;
}

/**
 * `?max_views=1&max_views=1000` is ambiguous (the first value would win silently, the opposite of
 * what some proxies and frameworks do): a repeated option is refused, not guessed.
 */
function refuseRepeatedOptions(queries: Record<string, string[]>): void {
  for (const [option, values] of Object.entries(queries)) {
    if (values.length > 1) {
      throw new HandoffError("invalid_option", `query option ${option} is given ${values.length} times`, { hint: `pass ${option} once`, details: { option } });
    }
  }
}

/** `POST /v1/handoffs`: stores the body under a fresh id and answers with the share link and owner token. */
export async function publishHandoff(c: AppContext): Promise<Response> {
  const env = c.env;
  const config = readConfig(env);
  const credential = await resolveCredential(env, c.req.header("Authorization"));
  refuseRepeatedOptions(c.req.queries());
  const parsed = parsePublishOptions(c.req.query(), config.expiry);
  if (!parsed.ok) throw parsed.error;
  const options = parsed.value;
  requireMayPublish(credential, config.allowAnonymousPublish, options.scope);
  const readHash = await readTokenHash(c.req.header(READ_TOKEN_HEADER));
  const card = teamCardOf(c.req.header(TEAM_CARD_HEADER), options.scope);
  const proposedId = proposedIdOf(c.req.header(PROPOSED_ID_HEADER));
  const passphrase = passphraseOf(c.req.header(PASSPHRASE_HEADER));
  const ownerToken = ownerTokenOf(c.req.header(OWNER_TOKEN_HEADER));
  const linkHash = await linkTokenHash(c.req.header(LINK_TOKEN_HEADER), passphrase);
  const body = await readBoundedBody(c.req.raw, config.maxBodyBytes);

  const now = Date.now();
  const expiresAt = now + options.expiresIn * 1000;
  const team = options.scope === "team" && credential.kind === "team" ? credential.team : null;
  const ownerHash = await sha256Base64Url(ownerToken);
  const init = {
    scope: options.scope,
    team,
    owner_hash: ownerHash,
    read_hash: readHash,
    size: body.byteLength,
    created_at: now,
    expires_at: expiresAt,
    max_views: options.maxViews,
    ...(passphrase ? { passphrase: true as const } : {}),
    ...(linkHash === undefined ? {} : { link_hash: linkHash }),
  };

  let id: string | undefined;
  if (proposedId !== undefined) {
    if (!(await accessFor(env, proposedId).create({ id: proposedId, ...init }))) {
      throw new HandoffError("invalid_option", `the ${PROPOSED_ID_HEADER} ${proposedId} is taken`, { hint: "draw a fresh random id and publish again", details: { option: PROPOSED_ID_HEADER } });
    }
    id = proposedId;
  }
  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS && id === undefined; attempt++) {
    const candidate = newHandoffId();
    if (await accessFor(env, candidate).create({ id: candidate, ...init })) id = candidate;
  }
  if (id === undefined) throw new HandoffError("internal", "could not claim a fresh id");

  try {
    // Independent writes, so a publish waits for the slowest, not their sum.
    const teamEntry = { v: 1 as const, size: body.byteLength, created_at: now, expires_at: expiresAt, max_views: options.maxViews };
    await Promise.all([
      putBody(env.BODIES, id, body, expiresAt),
      putExpiryMarker(env.BODIES, id, expiresAt, team),
      team === null ? undefined : putTeamEntry(env.META, team, id, teamEntry),
      team === null || card === null ? undefined : teamFor(env, team).putCard(id, card, expiresAt),
    ]);
  } catch (cause) {
    await accessFor(env, id).abandon();
    throw new HandoffError("internal", "could not store the body", { cause });
  }

  const expiresIso = new Date(expiresAt).toISOString();
  const response: PublishResponse = {
    id,
    url: `/h/${id}`,
    expires_at: expiresIso,
    max_views: options.maxViews,
    scope: options.scope,
    owner_token: ownerToken,
    retention: { policy: options.maxViews === null ? "delete-at-expiry" : "delete-at-expiry-or-last-view", delete_after: expiresIso },
  };
  return c.json(response, 201, { Location: `/v1/handoffs/${id}` });
}
