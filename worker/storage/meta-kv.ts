/**
 * KV holds the team index: one key per team-scoped handoff, `v1:team:<team>:<id>`, with its
 * listing fields in the key's metadata so a listing is one `list()` call. Non-authoritative: KV is
 * eventually consistent, so it never decides whether a read is allowed.
 */
import type { TeamHandoff } from "../../shared/api/handoff.js";

export const TEAM_PREFIX = "v1:team:";
const KV_MIN_TTL_SECONDS = 60;

export const teamEntryKey = (team: string, id: string) => `${TEAM_PREFIX}${team}:${id}`;

export interface TeamEntryMetadata {
  v: 1;
  size: number;
  created_at: number;
  expires_at: number;
  max_views: number | null;
}

export async function putTeamEntry(kv: KVNamespace, team: string, id: string, meta: TeamEntryMetadata): Promise<void> {
  // KV's own TTL is a backstop for the alarm; it must be at least 60 s away.
  const expiration = Math.max(Math.ceil(meta.expires_at / 1000), Math.ceil(Date.now() / 1000) + KV_MIN_TTL_SECONDS);
  await kv.put(teamEntryKey(team, id), "", { metadata: meta, expiration });
}

export async function deleteTeamEntry(kv: KVNamespace, team: string, id: string): Promise<void> {
  await kv.delete(teamEntryKey(team, id));
}

/** The team's entries not yet expired at `now`, newest first (at most `maxPages` × 1000 read). */
export async function listTeamEntries(kv: KVNamespace, team: string, now: number, maxPages = 10): Promise<Omit<TeamHandoff, "card">[]> {
  const prefix = `${TEAM_PREFIX}${team}:`;
  const entries: Omit<TeamHandoff, "card">[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listing = await kv.list<TeamEntryMetadata>({ prefix, cursor, limit: 1000 });
    for (const key of listing.keys) {
      const meta = key.metadata;
      if (!meta || meta.expires_at <= now) continue;
      const id = key.name.slice(prefix.length);
      entries.push({
        id,
        url: `/h/${id}`,
        size: meta.size,
        created_at: new Date(meta.created_at).toISOString(),
        expires_at: new Date(meta.expires_at).toISOString(),
        max_views: meta.max_views,
      });
    }
    if (listing.list_complete) break;
    cursor = listing.cursor;
  }
  return entries.sort((a, b) => b.created_at.localeCompare(a.created_at));
}
