/**
 * What a registry object (worker/durable/handoff-registry.ts) keeps in its storage: registry
 * format v2 (docs/storage.md, "Durable Object HandoffRegistry"). The object reads and writes these
 * records; the operator index (operator-index.ts) mirrors the team and credential ones in KV.
 */

export const REGISTRY_RECORD_VERSION = 2;

/** One team entry's sealed card (docs/storage.md, "The team card"); kept until the entry expires or is purged. */
export interface CardRecord {
  v: 1;
  /** `htc1.<key id>.<base64url>`: sealed with the team key, which the server never has. */
  card: string;
  expires_at: number;
}

export interface CredentialRecord {
  v: typeof REGISTRY_RECORD_VERSION;
  kind: "team" | "publish";
  /** The team a team token belongs to; null for a publish token. */
  team: string | null;
  created_at: number;
  /** Set by the operator's revoke; a revoked credential resolves to nothing. */
  revoked_at: number | null;
}

export interface TeamRecord {
  v: typeof REGISTRY_RECORD_VERSION;
  name: string;
  created_at: number;
  /** Live (unrevoked) tokens of the team. */
  tokens: number;
}
