/**
 * The operator's index of teams and tokens, in KV: what `GET /v1/admin/teams` and
 * `GET /v1/admin/tokens` list. Written after the registry objects decide (issue, count, revoke);
 * no request path reads it, so it never decides anything and may lag them (KV is eventually
 * consistent). Keys hold token hashes only, never a token.
 */
import type { CredentialRecord, TeamRecord } from "./registry-records.js";

export const OPERATOR_TEAM_PREFIX = "v1:op:team:";
export const OPERATOR_TOKEN_PREFIX = "v1:op:token:";

export interface TeamIndexMetadata {
  v: 1;
  created_at: number;
  tokens: number;
}

export interface TokenIndexMetadata {
  v: 1;
  kind: CredentialRecord["kind"];
  team: string | null;
  created_at: number;
}

export async function indexTeam(kv: KVNamespace, team: TeamRecord): Promise<void> {
  await kv.put(`${OPERATOR_TEAM_PREFIX}${team.name}`, "", { metadata: { v: 1, created_at: team.created_at, tokens: team.tokens } satisfies TeamIndexMetadata });
}

export async function indexToken(kv: KVNamespace, hash: string, meta: Omit<TokenIndexMetadata, "v">): Promise<void> {
  await kv.put(`${OPERATOR_TOKEN_PREFIX}${hash}`, "", { metadata: { v: 1, ...meta } satisfies TokenIndexMetadata });
}

export async function unindexToken(kv: KVNamespace, hash: string): Promise<void> {
  await kv.delete(`${OPERATOR_TOKEN_PREFIX}${hash}`);
}

/** Every entry under `prefix` with its metadata, key suffix first (at most `maxPages` × 1000). */
async function listIndex<M>(kv: KVNamespace, prefix: string, maxPages = 10): Promise<Array<[string, M]>> {
  const entries: Array<[string, M]> = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listing = await kv.list<M>({ prefix, cursor, limit: 1000 });
    for (const key of listing.keys) if (key.metadata) entries.push([key.name.slice(prefix.length), key.metadata]);
    if (listing.list_complete) break;
    cursor = listing.cursor;
  }
  return entries;
}

export const listIndexedTeams = (kv: KVNamespace) => listIndex<TeamIndexMetadata>(kv, OPERATOR_TEAM_PREFIX);
export const listIndexedTokens = (kv: KVNamespace) => listIndex<TokenIndexMetadata>(kv, OPERATOR_TOKEN_PREFIX);
