import { DurableObject } from "cloudflare:workers";
import { constantTimeEqual } from "../../shared/tokens.js";
import type { Bindings } from "../bindings.js";
import { deleteBody } from "../storage/bodies-r2.js";
import { deleteTeamEntry } from "../storage/meta-kv.js";
import {
  ACCESS_STATE_KEY,
  type AccessDecision,
  type AccessInit,
  type AccessState,
  decidePeek,
  decideRead,
  isSpent,
  LAST_VIEW_GRACE_MS,
  newAccessState,
} from "./access-state.js";

export type RevokeOutcome = { ok: true } | { ok: false; reason: "not_found" | "forbidden" };

/**
 * The authority for one published handoff (one object per id, `idFromName(id)`). Every decision
 * is a synchronous read-modify-write on ctx.storage.kv with no await in between, so the input
 * gate makes it exact: 100 concurrent reads of a 1-view handoff see exactly one success.
 * Methods return values, never throw for expected outcomes: errors do not keep their class
 * across RPC.
 */
export class HandoffAccess extends DurableObject<Bindings> {
  private state(): AccessState | undefined {
    return this.ctx.storage.kv.get<AccessState>(ACCESS_STATE_KEY);
  }

  /** Claims this id. False when it was ever used, so an id is never reused, even after expiry. */
  async create(init: AccessInit): Promise<boolean> {
    if (this.state() !== undefined) return false;
    this.ctx.storage.kv.put(ACCESS_STATE_KEY, newAccessState(init));
    await this.ctx.storage.setAlarm(init.expires_at);
    return true;
  }

  /**
   * A read of the body: decides and, when allowed, counts the view. `readHash` is the SHA-256 of
   * the read token the reader sent (null: none); without the right one no view is spent.
   */
  async consumeView(callerTeam: string | null, readHash: string | null): Promise<AccessDecision> {
    return this.consumeViewAt(callerTeam, readHash, Date.now());
  }

  /** `consumeView` at an explicit time (tests drive the clock through this). */
  async consumeViewAt(callerTeam: string | null, readHash: string | null, now: number): Promise<AccessDecision> {
    const state = this.state();
    const decision = decideRead(state, callerTeam, readHash, now);
    if (!decision.ok || !state) return decision;
    const next = { ...state, views_used: state.views_used + 1 };
    this.ctx.storage.kv.put(ACCESS_STATE_KEY, next);
    if (next.max_views !== null && next.views_used >= next.max_views) {
      await this.ctx.storage.setAlarm(Math.min(now + LAST_VIEW_GRACE_MS, next.expires_at));
    }
    return { ok: true, view: { ...decision.view, views_used: next.views_used } };
  }

  /** The same decision as a read, without counting a view (`/meta`). */
  async peek(callerTeam: string | null): Promise<AccessDecision> {
    return this.peekAt(callerTeam, Date.now());
  }

  async peekAt(callerTeam: string | null, now: number): Promise<AccessDecision> {
    return decidePeek(this.state(), callerTeam, now);
  }

  /** The owner ends the link: every later read is 410 `revoked`, and the body goes now. */
  async revoke(ownerHash: string): Promise<RevokeOutcome> {
    const state = this.state();
    if (!state) return { ok: false, reason: "not_found" };
    if (!constantTimeEqual(ownerHash, state.owner_hash)) return { ok: false, reason: "forbidden" };
    if (state.revoked_at === null) this.ctx.storage.kv.put(ACCESS_STATE_KEY, { ...state, revoked_at: Date.now() });
    await this.purge();
    return { ok: true };
  }

  /** Undoes a publish whose body could not be stored: the id stays claimed, nothing readable. */
  async abandon(): Promise<void> {
    const state = this.state();
    if (state && state.revoked_at === null) this.ctx.storage.kv.put(ACCESS_STATE_KEY, { ...state, revoked_at: Date.now() });
    await this.purge();
  }

  /** Retention: at expiry (or shortly after the last view) the body and the KV entry are deleted. */
  override async alarm(): Promise<void> {
    const state = this.state();
    if (!state || state.purged_at !== null) return;
    const now = Date.now();
    if (!isSpent(state, now)) {
      await this.ctx.storage.setAlarm(state.expires_at);
      return;
    }
    await this.purge();
  }

  private async purge(): Promise<void> {
    const state = this.state();
    if (!state || state.purged_at !== null) return;
    await deleteBody(this.env.BODIES, state.id);
    if (state.team !== null) await deleteTeamEntry(this.env.META, state.team, state.id);
    this.ctx.storage.kv.put(ACCESS_STATE_KEY, { ...this.state()!, purged_at: Date.now() });
    await this.ctx.storage.deleteAlarm();
  }
}
