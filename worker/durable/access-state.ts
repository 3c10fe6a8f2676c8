/**
 * The state a HandoffAccess Durable Object keeps for one published handoff (storage format v2,
 * documented in docs/storage.md ("Server storage")), and the pure decisions taken on it. Kept free of I/O so
 * the rules can be read, and tested, apart from the object that applies them.
 */
import type { Scope } from "../../shared/api/publish.js";
import { constantTimeEqual } from "../../shared/ids/tokens.js";

export const ACCESS_STATE_KEY = "state";
/**
 * v2 adds `read_hash` (key-bound reads); a v1 state, published before, has none. v3 adds
 * `view_times` (the owner's view log); an older state has none and reads as an empty log.
 */
export const ACCESS_STATE_VERSION = 3;
/** The view log keeps the most recent this many view times. */
export const VIEW_LOG_LIMIT = 20;
/** View times are kept to the minute: when, roughly, not a reader's exact timing. */
export const VIEW_TIME_GRAIN_MS = 60_000;
/** After the last allowed view the body stays this long, so that reader can finish streaming it. */
export const LAST_VIEW_GRACE_MS = 60_000;
/**
 * How long the state outlives the body, so a late reader hears 410 expired|revoked|exhausted
 * rather than 404. Then the object deletes all of its storage: ids are 128-bit random, so no
 * tombstone is needed to keep one from being reused.
 */
export const RECLAIM_GRACE_MS = 24 * 3_600_000;

export interface AccessState {
  v: 1 | 2 | typeof ACCESS_STATE_VERSION;
  id: string;
  scope: Scope;
  /** The team that may read a team-scoped handoff; null for link scope. */
  team: string | null;
  /** SHA-256 (base64url) of the owner token; the token itself is never stored. */
  owner_hash: string;
  /**
   * SHA-256 (base64url) of the read token derived from the share key: a body read must present
   * the token. Absent in a v1 state (published before key-bound reads): such a link is read by id.
   */
  read_hash?: string;
  size: number;
  created_at: number;
  expires_at: number;
  max_views: number | null;
  views_used: number;
  revoked_at: number | null;
  /** When the body and the KV entry were deleted; the whole state goes `RECLAIM_GRACE_MS` later. */
  purged_at: number | null;
  /**
   * v3: when each counted view happened, oldest first, to the minute, the last `VIEW_LOG_LIMIT`.
   * Only times: nothing about who read. Shown to the owner alone (`decideOwnerView`).
   */
  view_times?: number[];
  /** v3: the link has a passphrase (envelope v2), so a read token that does not match says so. */
  passphrase?: true;
}

export type AccessInit = Pick<AccessState, "id" | "scope" | "team" | "owner_hash" | "size" | "created_at" | "expires_at" | "max_views" | "passphrase"> & {
  read_hash: string;
};

export type DenyReason = "not_found" | "unauthorized" | "forbidden" | "key_required" | "key_mismatch" | "passphrase_mismatch" | "revoked" | "expired" | "exhausted";

export interface AccessView {
  id: string;
  scope: Scope;
  size: number;
  created_at: number;
  expires_at: number;
  max_views: number | null;
  views_used: number;
  /** Present (true) only for a passphrase link. */
  passphrase?: true;
}

export type AccessDecision = { ok: true; view: AccessView } | { ok: false; reason: DenyReason; expires_at?: number; max_views?: number | null };

export function newAccessState(init: AccessInit): AccessState {
  return { v: ACCESS_STATE_VERSION, ...init, views_used: 0, revoked_at: null, purged_at: null, view_times: [] };
}

/** The state after one counted view at `now`: one more view used, its time (to the minute) logged. */
export function recordView(state: AccessState, now: number): AccessState {
  const logged = [...(state.view_times ?? []), Math.floor(now / VIEW_TIME_GRAIN_MS) * VIEW_TIME_GRAIN_MS].slice(-VIEW_LOG_LIMIT);
  return { ...state, views_used: state.views_used + 1, view_times: logged };
}

export type LinkState = "active" | "revoked" | "expired" | "exhausted";

/** What the owner sees of their link: its state, views used and left, and the view log. */
export interface OwnerView {
  id: string;
  state: LinkState;
  views_used: number;
  max_views: number | null;
  expires_at: number;
  revoked_at: number | null;
  view_times: number[];
}

export type OwnerDecision = { ok: true; view: OwnerView } | { ok: false; reason: "not_found" | "forbidden" };

/**
 * May the holder of the owner token hashing to `ownerHash` see the view log? Only the owner, and
 * whatever the link's state: an ended link's log still says when it was read.
 */
export function decideOwnerView(state: AccessState | undefined, ownerHash: string, now: number): OwnerDecision {
  if (!state) return { ok: false, reason: "not_found" };
  if (!constantTimeEqual(ownerHash, state.owner_hash)) return { ok: false, reason: "forbidden" };
  const linkState: LinkState = state.revoked_at !== null ? "revoked" : now >= state.expires_at ? "expired" : state.max_views !== null && state.views_used >= state.max_views ? "exhausted" : "active";
  return {
    ok: true,
    view: { id: state.id, state: linkState, views_used: state.views_used, max_views: state.max_views, expires_at: state.expires_at, revoked_at: state.revoked_at, view_times: state.view_times ?? [] },
  };
}

export function viewOf(state: AccessState): AccessView {
  const { id, scope, size, created_at, expires_at, max_views, views_used } = state;
  return { id, scope, size, created_at, expires_at, max_views, views_used, ...(state.passphrase ? { passphrase: true as const } : {}) };
}

/**
 * May `callerTeam` see `state` at `now` (`/meta`: no proof of the key asked)? Who-are-you comes
 * first, so an outsider learns nothing about a team handoff beyond 401/403; then revoked, expired
 * (to the millisecond: a read at `expires_at` is too late), used up.
 */
export function decidePeek(state: AccessState | undefined, callerTeam: string | null, now: number): AccessDecision {
  if (!state) return { ok: false, reason: "not_found" };
  if (state.scope === "team") {
    if (callerTeam === null) return { ok: false, reason: "unauthorized" };
    if (callerTeam !== state.team) return { ok: false, reason: "forbidden" };
  }
  if (state.revoked_at !== null) return { ok: false, reason: "revoked" };
  if (now >= state.expires_at) return { ok: false, reason: "expired", expires_at: state.expires_at };
  if (state.max_views !== null && state.views_used >= state.max_views) {
    return { ok: false, reason: "exhausted", max_views: state.max_views };
  }
  return { ok: true, view: viewOf(state) };
}

/**
 * May `callerTeam` read the body, presenting `readHash` (the SHA-256 of its read token, null when
 * none was sent)? The peek's decision, and on top of it proof of the key, so the id alone never
 * spends a view. A refusal for the lifecycle (revoked, expired, used up) wins over a missing
 * proof: `/meta` says as much to anyone with the id.
 */
export function decideRead(state: AccessState | undefined, callerTeam: string | null, readHash: string | null, now: number): AccessDecision {
  const decision = decidePeek(state, callerTeam, now);
  if (!decision.ok || state?.read_hash === undefined) return decision;
  if (readHash === null) return { ok: false, reason: "key_required" };
  // A passphrase link cannot tell a missing passphrase from a wrong one (both give another token).
  if (!constantTimeEqual(readHash, state.read_hash)) return { ok: false, reason: state.passphrase ? "passphrase_mismatch" : "key_mismatch" };
  return decision;
}

/** Nothing can be read any more (so the body may go), ignoring who asks. */
export function isSpent(state: AccessState, now: number): boolean {
  return state.revoked_at !== null || now >= state.expires_at || (state.max_views !== null && state.views_used >= state.max_views);
}
