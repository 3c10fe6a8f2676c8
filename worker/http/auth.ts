import { HandoffError } from "../../shared/errors.js";
import { bearerToken, constantTimeEqual, sha256Base64Url, tokenKind } from "../../shared/ids/tokens.js";
import type { Bindings } from "../bindings.js";
import { credentialFor } from "../storage/durable-objects.js";

export type Credential = { kind: "anonymous" } | { kind: "publish"; hash: string } | { kind: "team"; team: string; hash: string };

const unauthorized = (message: string) => new HandoffError("unauthorized", message, { hint: "send 'Authorization: Bearer <token>' with a token from your operator" });

/**
 * The caller's publishing credential: none (anonymous), or a live (issued, unrevoked) team or
 * publish token. A header that is present but malformed, of the wrong kind or unknown is a 401.
 */
export async function resolveCredential(env: Bindings, header: string | undefined): Promise<Credential> {
  const token = bearerToken(header);
  if (token === undefined) return { kind: "anonymous" };
  if (token === null) throw unauthorized("the Authorization header is not a bearer token");
  const kind = tokenKind(token);
  if (kind !== "team" && kind !== "publish") throw unauthorized("the bearer token is not a team or publish token");
  const hash = await sha256Base64Url(token);
  // Asked of the object named by this token's hash: no object hears every credential check.
  const record = await credentialFor(env, hash).resolve();
  if (record === null || record.kind !== kind) throw unauthorized("the bearer token is not known to this server");
  return record.kind === "team" && record.team !== null ? { kind: "team", team: record.team, hash } : { kind: "publish", hash };
}

/**
 * The reader's team: only a live team token counts. Anything else (no header, a stray, stale or
 * revoked token) reads as "no team", so a link-scoped read never fails on a credential it does
 * not need; a team-scoped handoff then answers 401.
 */
export async function readerTeam(env: Bindings, header: string | undefined): Promise<string | null> {
  const token = bearerToken(header);
  if (typeof token !== "string" || tokenKind(token) !== "team") return null;
  const record = await credentialFor(env, await sha256Base64Url(token)).resolve();
  return record?.kind === "team" && record.team !== null ? record.team : null;
}

/** The owner token's hash from a DELETE, or a 401 when it is missing or not an owner token. */
export async function ownerTokenHash(header: string | undefined): Promise<string> {
  const token = bearerToken(header);
  if (typeof token !== "string") throw unauthorized("revoking needs 'Authorization: Bearer <owner_token>'");
  if (tokenKind(token) !== "owner") throw unauthorized("the bearer token is not an owner token");
  return sha256Base64Url(token);
}

const MIN_ADMIN_TOKEN_LENGTH = 32;

/** The operator API needs the ADMIN_TOKEN secret; without one configured it is off (403). */
export async function requireAdmin(env: Bindings, header: string | undefined): Promise<void> {
  const configured = env.ADMIN_TOKEN ?? "";
  if (configured.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new HandoffError("forbidden", "the operator API is off on this server", {
      hint: `set the ADMIN_TOKEN secret (at least ${MIN_ADMIN_TOKEN_LENGTH} characters); see docs/deploy.md`,
    });
  }
  const token = bearerToken(header);
  if (typeof token !== "string") throw unauthorized("the operator API needs 'Authorization: Bearer <ADMIN_TOKEN>'");
  const [presented, expected] = await Promise.all([sha256Base64Url(token), sha256Base64Url(configured)]);
  if (!constantTimeEqual(presented, expected)) throw new HandoffError("forbidden", "the operator token is wrong");
}
