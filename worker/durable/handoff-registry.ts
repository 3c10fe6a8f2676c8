import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../bindings.js";

/** The one registry instance's name (`REGISTRY.idFromName(REGISTRY_NAME)`). */
export const REGISTRY_NAME = "registry-v1";

export interface TeamRecord {
  name: string;
  created_at: number;
}

export interface CredentialRecord {
  kind: "team" | "publish";
  /** The team a team token belongs to; null for a publish token. */
  team: string | null;
  created_at: number;
}

const teamKey = (name: string) => `team:${name}`;
const credentialKey = (hash: string) => `cred:${hash}`;

/**
 * Teams and the credentials that may publish (team and publish tokens), keyed by the SHA-256
 * hash of the token. A Durable Object rather than KV because a credential check must be strongly
 * consistent: a token issued a moment ago works at once. One instance serves the whole
 * deployment; it is only asked on publish, on team reads and by the operator, never on a
 * link-scoped read.
 */
export class HandoffRegistry extends DurableObject<Bindings> {
  /** Creates a team with its first token. False when the name is taken. */
  async createTeam(name: string, tokenHash: string, now: number): Promise<boolean> {
    const kv = this.ctx.storage.kv;
    if (kv.get(teamKey(name)) !== undefined) return false;
    kv.put<TeamRecord>(teamKey(name), { name, created_at: now });
    kv.put<CredentialRecord>(credentialKey(tokenHash), { kind: "team", team: name, created_at: now });
    return true;
  }

  /** Adds a token: for `team` (which must exist) or, with team null, a publish token. */
  async addToken(team: string | null, tokenHash: string, now: number): Promise<boolean> {
    const kv = this.ctx.storage.kv;
    if (team !== null && kv.get(teamKey(team)) === undefined) return false;
    kv.put<CredentialRecord>(credentialKey(tokenHash), { kind: team === null ? "publish" : "team", team, created_at: now });
    return true;
  }

  /** The credential a token hash stands for, or null when it is unknown. */
  async resolve(tokenHash: string): Promise<CredentialRecord | null> {
    return this.ctx.storage.kv.get<CredentialRecord>(credentialKey(tokenHash)) ?? null;
  }

  /** Every team with how many tokens it has, by name. */
  async listTeams(): Promise<Array<TeamRecord & { tokens: number }>> {
    const kv = this.ctx.storage.kv;
    const counts = new Map<string, number>();
    for (const [, record] of kv.list<CredentialRecord>({ prefix: "cred:" })) {
      if (record.team !== null) counts.set(record.team, (counts.get(record.team) ?? 0) + 1);
    }
    return [...kv.list<TeamRecord>({ prefix: "team:" })].map(([, team]) => ({ ...team, tokens: counts.get(team.name) ?? 0 }));
  }
}
