import { DurableObject } from "cloudflare:workers";
import { type CardRecord, type CredentialRecord, REGISTRY_RECORD_VERSION, type TeamRecord } from "../storage/registry-records.js";

/**
 * Credentials and teams, sharded: no instance serves everyone. Each instance holds one record,
 * named after what it decides (worker/storage/durable-objects.ts):
 *
 * - `cred:<sha256 of the token>`: one credential (a team or publish token). A request resolves its
 *   token at the object named by the token's own hash, so credential checks spread over as many
 *   objects as there are tokens, and each answer is strongly consistent: a token works the moment
 *   it is issued and is refused on the first request after it is revoked.
 * - `team:<name>`: one team, so a name is claimed once and its token count is exact; it also holds
 *   the team's sealed cards (`card:<id>`, opaque: the server has no team key), so a listing gets
 *   every card in one strongly consistent call.
 *
 * Operator listings do not ask these objects: they read the KV index (worker/storage/operator-index.ts).
 * Storage format v2 (its records: worker/storage/registry-records.ts; docs/storage.md); v1 was one instance, `registry-v1`, that no path reads now.
 */

const CREDENTIAL_KEY = "cred";
const TEAM_KEY = "team";
const CARD_PREFIX = "card:";

// It reads no binding. Like HandoffAccess it never imports worker/bindings.ts, which names it.
export class HandoffRegistry extends DurableObject {
  private get kv() {
    return this.ctx.storage.kv;
  }

  // --- a `cred:<hash>` instance ---

  /** Records this credential. False when the hash was ever issued (a 256-bit collision: never). */
  async issue(kind: "team" | "publish", team: string | null, now: number): Promise<boolean> {
    if (this.kv.get(CREDENTIAL_KEY) !== undefined) return false;
    this.kv.put<CredentialRecord>(CREDENTIAL_KEY, { v: REGISTRY_RECORD_VERSION, kind, team, created_at: now, revoked_at: null });
    return true;
  }

  /** The credential, or null when it is unknown or revoked. */
  async resolve(): Promise<CredentialRecord | null> {
    const record = this.kv.get<CredentialRecord>(CREDENTIAL_KEY);
    return record === undefined || record.revoked_at !== null ? null : record;
  }

  /** Revokes the credential; answers what it was (null: unknown, or revoked before). */
  async revoke(now: number): Promise<CredentialRecord | null> {
    const record = this.kv.get<CredentialRecord>(CREDENTIAL_KEY);
    if (record === undefined || record.revoked_at !== null) return null;
    this.kv.put<CredentialRecord>(CREDENTIAL_KEY, { ...record, revoked_at: now });
    return record;
  }

  // --- a `team:<name>` instance ---

  /** Claims the team name with its first token counted. False when the name is taken. */
  async createTeam(name: string, now: number): Promise<boolean> {
    if (this.kv.get(TEAM_KEY) !== undefined) return false;
    this.kv.put<TeamRecord>(TEAM_KEY, { v: REGISTRY_RECORD_VERSION, name, created_at: now, tokens: 1 });
    return true;
  }

  /** Counts one token more (or, with `delta` -1, less); the team after it, or null when there is no team. */
  async countToken(delta: 1 | -1): Promise<TeamRecord | null> {
    const team = this.kv.get<TeamRecord>(TEAM_KEY);
    if (team === undefined) return null;
    const next = { ...team, tokens: Math.max(0, team.tokens + delta) };
    this.kv.put<TeamRecord>(TEAM_KEY, next);
    return next;
  }

  /** Keeps the sealed card of the team entry `id` (written once, at publish). */
  async putCard(id: string, card: string, expiresAt: number): Promise<void> {
    this.kv.put<CardRecord>(`${CARD_PREFIX}${id}`, { v: 1, card, expires_at: expiresAt });
  }

  /**
   * The sealed cards of the entries live at `now`, by id. Cards past their expiry are deleted in
   * the same synchronous pass, so the object never holds more than the team's live entries.
   */
  async cards(now: number): Promise<Record<string, string>> {
    const live: Record<string, string> = {};
    for (const [key, record] of this.kv.list<CardRecord>({ prefix: CARD_PREFIX })) {
      if (record.expires_at <= now) this.kv.delete(key);
      else live[key.slice(CARD_PREFIX.length)] = record.card;
    }
    return live;
  }

  /** Forgets the card of `id` (its handoff was revoked, used up or reclaimed). */
  async dropCard(id: string): Promise<void> {
    this.kv.delete(`${CARD_PREFIX}${id}`);
  }
}
