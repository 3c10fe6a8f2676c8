/**
 * The state a HandoffAccess Durable Object keeps for one published handoff (storage format v2,
 * access state v4, documented in docs/storage.md ("Server storage")), and the pure decisions taken
 * on it. Kept free of I/O so the rules can be read, and tested, apart from the object that applies them.
 */
import type { Scope } from "../../shared/api/publish.js";
import { constantTimeEqual } from "../../shared/ids/tokens.js";

export const ACCESS_STATE_KEY = "state";
/**
 * v2 adds `read_hash` (key-bound reads); a v1 state, published before, has none. v3 adds
 * `view_times` (the owner's view log); an older state has none and reads as an empty log. v4 adds
 * the per-link passphrase limit (`wrong_passphrases`, `judge_after`, `locked_at`); an older state
 * has none and reads as a link with no wrong passphrase yet.
 */
export const ACCESS_STATE_VERSION = 4;
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

/**
 * The per-link passphrase limit (N): after this many wrong passphrases on one link, each next
 * attempt waits (`passphraseWaitMs`) before it is judged at all. The per-client read limiter still
 * applies; this one holds however many addresses the guesses come from.
 */
export const PASSPHRASE_SLOW_AFTER = 5;
/** (M) This many wrong passphrases lock the link: nothing is judged until its owner resets it or revokes it. */
export const PASSPHRASE_LOCK_AFTER = 20;
/** The wait after the N-th wrong passphrase; each further one doubles it, up to `PASSPHRASE_MAX_WAIT_MS`. */
export const PASSPHRASE_FIRST_WAIT_MS = 1_000;
export const PASSPHRASE_MAX_WAIT_MS = 60_000;

/**
 * How long the attempt after the `wrong`-th wrong passphrase must wait before it is judged: none
 * below N, then 1 s, 2 s, 4 s, ... up to 60 s.
 *
 * @example
 * ```ts
 * passphraseWaitMs(4) // 0
 * passphraseWaitMs(5) // 1000
 * passphraseWaitMs(7) // 4000
 * ```
 */
export function passphraseWaitMs(wrong: number): number {
  if (wrong < PASSPHRASE_SLOW_AFTER) return 0;
  return Math.min(PASSPHRASE_FIRST_WAIT_MS * 2 ** (wrong - PASSPHRASE_SLOW_AFTER), PASSPHRASE_MAX_WAIT_MS);
}

export interface AccessState {
  v: 1 | 2 | 3 | typeof ACCESS_STATE_VERSION;
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
  /**
   * v4, passphrase links only: read tokens judged wrong on this link, whoever sent them. A right
   * one does not reset it (guesses between a reader's reads would go uncounted); the owner does.
   */
  wrong_passphrases?: number;
  /** v4: no attempt is judged before this time (epoch ms): set from the N-th wrong passphrase on. */
  judge_after?: number | null;
  /** v4: when the M-th wrong passphrase locked the link; null: not locked. */
  locked_at?: number | null;
  /**
   * v4, passphrase links published with `Handoff-Link-Token`: SHA-256 (base64url) of the link
   * alone's read token, so a read that gave no passphrase is told so and not counted as a wrong one.
   */
  link_hash?: string;
}

export type AccessInit = Pick<AccessState, "id" | "scope" | "team" | "owner_hash" | "size" | "created_at" | "expires_at" | "max_views" | "passphrase" | "link_hash"> & {
  read_hash: string;
};

export type DenyReason =
  | "not_found"
  | "unauthorized"
  | "forbidden"
  | "key_required"
  | "key_mismatch"
  | "passphrase_mismatch"
  | "passphrase_missing"
  | "passphrase_slowed"
  | "passphrase_locked"
  | "revoked"
  | "expired"
  | "exhausted";

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

/** Where a passphrase link stands with its wrong passphrases (what a refusal tells the reader). */
export interface PassphraseLimit {
  wrong: number;
  /** No attempt is judged before this time; null: the next one is judged at once. */
  judge_after: number | null;
  locked_at: number | null;
}

export type AccessDecision = { ok: true; view: AccessView } | { ok: false; reason: DenyReason; expires_at?: number; max_views?: number | null; limit?: PassphraseLimit; now?: number };

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
  /** A passphrase link's wrong passphrases, wait and lock; undefined for a link without one. */
  passphrase?: PassphraseLimit;
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
    view: {
      id: state.id,
      state: linkState,
      views_used: state.views_used,
      max_views: state.max_views,
      expires_at: state.expires_at,
      revoked_at: state.revoked_at,
      view_times: state.view_times ?? [],
      ...(state.passphrase ? { passphrase: passphraseLimit(state) } : {}),
    },
  };
}

/** The limit as stored, an older state (v1-v3) reading as no wrong passphrase yet. */
export function passphraseLimit(state: AccessState): PassphraseLimit {
  return { wrong: state.wrong_passphrases ?? 0, judge_after: state.judge_after ?? null, locked_at: state.locked_at ?? null };
}

/**
 * The owner's reset of a passphrase link's limit (`POST /v1/handoffs/:id/unlock`, after
 * `decideOwnerView` said it is the owner): the count, the wait and the lock go, and the next
 * attempt is judged at once. A link without a passphrase is returned unchanged.
 */
export function resetPassphraseLimit(state: AccessState): AccessState {
  if (!state.passphrase) return state;
  return { ...state, v: ACCESS_STATE_VERSION, wrong_passphrases: 0, judge_after: null, locked_at: null };
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

/** A read's decision and, when it changes anything (a view counted, a wrong passphrase counted), the state after it. */
export interface ReadOutcome {
  decision: AccessDecision;
  next?: AccessState;
}

/**
 * May `callerTeam` read the body, presenting `readHash` (the SHA-256 of its read token, null when
 * none was sent)? The peek's decision, and on top of it proof of the key, so the id alone never
 * spends a view. A refusal for the lifecycle (revoked, expired, used up) wins over a missing
 * proof: `/meta` says as much to anyone with the id.
 *
 * A passphrase link also limits wrong passphrases per link: a locked link judges nothing, and
 * during a wait nothing is judged either, the right passphrase included (429 with the time to
 * wait); a wrong one is counted, starts or lengthens the wait from the N-th, and locks the link at
 * the M-th. A link without a passphrase counts nothing: its 256-bit key cannot be guessed, and a
 * lock would only let anyone with the id shut its readers out. Allowed or not, no view is spent
 * but by a read that is allowed.
 */
export function judgeRead(state: AccessState | undefined, callerTeam: string | null, readHash: string | null, now: number): ReadOutcome {
  const decision = decidePeek(state, callerTeam, now);
  if (!decision.ok || state === undefined) return { decision };
  if (state.read_hash === undefined) return allowed(state, decision, now);
  if (readHash === null) return { decision: { ok: false, reason: "key_required" } };
  if (!state.passphrase) return constantTimeEqual(readHash, state.read_hash) ? allowed(state, decision, now) : { decision: { ok: false, reason: "key_mismatch" } };
  const limit = passphraseLimit(state);
  if (limit.locked_at !== null) return { decision: { ok: false, reason: "passphrase_locked", limit, now } };
  // The link alone (what a reader sends before it asks for the passphrase) is no guess: not counted.
  if (state.link_hash !== undefined && constantTimeEqual(readHash, state.link_hash)) return { decision: { ok: false, reason: "passphrase_missing", limit, now } };
  if (limit.judge_after !== null && now < limit.judge_after) return { decision: { ok: false, reason: "passphrase_slowed", limit, now } };
  if (constantTimeEqual(readHash, state.read_hash)) return allowed(state, decision, now);
  // A passphrase link cannot tell a missing passphrase from a wrong one (both give another token).
  const wrong = limit.wrong + 1;
  const locked = wrong >= PASSPHRASE_LOCK_AFTER;
  const wait = passphraseWaitMs(wrong);
  const next: AccessState = { ...state, v: ACCESS_STATE_VERSION, wrong_passphrases: wrong, judge_after: wait > 0 && !locked ? now + wait : null, locked_at: locked ? now : null };
  return { decision: { ok: false, reason: locked ? "passphrase_locked" : "passphrase_mismatch", limit: passphraseLimit(next), now }, next };
}

function allowed(state: AccessState, decision: Extract<AccessDecision, { ok: true }>, now: number): ReadOutcome {
  const next = recordView(state, now);
  return { decision: { ok: true, view: { ...decision.view, views_used: next.views_used } }, next };
}

/** Nothing can be read any more (so the body may go), ignoring who asks. */
export function isSpent(state: AccessState, now: number): boolean {
  return state.revoked_at !== null || now >= state.expires_at || (state.max_views !== null && state.views_used >= state.max_views);
}
