import { DurableObject } from "cloudflare:workers";
import { constantTimeEqual } from "../../shared/ids/tokens.js";
import { deleteBody } from "../storage/bodies-r2.js";
import { deleteExpiryMarker } from "../storage/expiry-index.js";
import { teamFor } from "../storage/durable-objects.js";
import { deleteTeamEntry } from "../storage/meta-kv.js";
import {
  ACCESS_STATE_KEY,
  type AccessDecision,
  type AccessInit,
  type AccessState,
  decideOwnerView,
  decidePeek,
  isSpent,
  judgeRead,
  LAST_VIEW_GRACE_MS,
  newAccessState,
  type OwnerDecision,
  RECLAIM_GRACE_MS,
  resetPassphraseLimit,
} from "./access-state.js";

export type RevokeOutcome = { ok: true } | { ok: false; reason: "not_found" | "forbidden" };

/** What the backstop's `reclaim` found: a live handoff (left alone), storage it deleted, or none. */
export type ReclaimOutcome = { outcome: "live" } | { outcome: "reclaimed" } | { outcome: "absent" };

/**
 * The authority for one published handoff (one object per id, `idFromName(id)`). Every decision
 * is a synchronous read-modify-write on ctx.storage.kv with no await in between, so the input
 * gate makes it exact: 100 concurrent reads of a 1-view handoff see exactly one success.
 * Methods return values, never throw for expected outcomes: errors do not keep their class
 * across RPC.
 *
 * Retention, in two steps driven by the alarm: when nothing can be read any more the body, the
 * team entry go (`purge`); `RECLAIM_GRACE_MS` later the expiry marker and every byte of this
 * object's own storage go (`deleteAll`), so a handoff costs nothing once it is over.
 */
// `this.env` is Cloudflare.Env, the platform's name for the worker's env (worker/env.d.ts makes it
// Bindings): this file never imports worker/bindings.ts, which names this class.
export class HandoffAccess extends DurableObject {
  private state(): AccessState | undefined {
    return this.ctx.storage.kv.get<AccessState>(ACCESS_STATE_KEY);
  }

  /** Claims this id. False when it is taken (ids are 128-bit random: only a broken RNG repeats one). */
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

  /**
   * `consumeView` at an explicit time (tests drive the clock through this). The decision and its
   * write (a view counted, or a wrong passphrase counted) happen with no await in between.
   */
  async consumeViewAt(callerTeam: string | null, readHash: string | null, now: number): Promise<AccessDecision> {
    const { decision, next } = judgeRead(this.state(), callerTeam, readHash, now);
    if (next === undefined) return decision;
    this.ctx.storage.kv.put(ACCESS_STATE_KEY, next);
    if (decision.ok && next.max_views !== null && next.views_used >= next.max_views) {
      await this.ctx.storage.setAlarm(Math.min(now + LAST_VIEW_GRACE_MS, next.expires_at));
    }
    return decision;
  }

  /** The same decision as a read, without counting a view (`/meta`). */
  async peek(callerTeam: string | null): Promise<AccessDecision> {
    return this.peekAt(callerTeam, Date.now());
  }

  async peekAt(callerTeam: string | null, now: number): Promise<AccessDecision> {
    return decidePeek(this.state(), callerTeam, now);
  }

  /** The owner's view of the link: state, views and the view log (`GET /v1/handoffs/:id/views`). */
  async ownerView(ownerHash: string): Promise<OwnerDecision> {
    return decideOwnerView(this.state(), ownerHash, Date.now());
  }

  /**
   * The owner resets a passphrase link's limit (wrong passphrases, wait, lock) and gets the link's
   * owner view after it. Nothing else changes; a link without a passphrase is left as it is.
   */
  async unlock(ownerHash: string): Promise<OwnerDecision> {
    const state = this.state();
    const now = Date.now();
    const decision = decideOwnerView(state, ownerHash, now);
    if (!decision.ok || state === undefined) return decision;
    const next = resetPassphraseLimit(state);
    if (next !== state) this.ctx.storage.kv.put(ACCESS_STATE_KEY, next);
    return decideOwnerView(next, ownerHash, now);
  }

  /** The owner ends the link: every later read is 410 `revoked`, and the body goes now. */
  async revoke(ownerHash: string): Promise<RevokeOutcome> {
    const state = this.state();
    if (!state) return { ok: false, reason: "not_found" };
    if (!constantTimeEqual(ownerHash, state.owner_hash)) return { ok: false, reason: "forbidden" };
    const now = Date.now();
    if (state.revoked_at === null) this.ctx.storage.kv.put(ACCESS_STATE_KEY, { ...state, revoked_at: now });
    await this.purge(now);
    return { ok: true };
  }

  /** Undoes a publish whose body could not be stored: nothing readable, and reclaimed like any other. */
  async abandon(): Promise<void> {
    const state = this.state();
    const now = Date.now();
    if (state && state.revoked_at === null) this.ctx.storage.kv.put(ACCESS_STATE_KEY, { ...state, revoked_at: now });
    await this.purge(now);
  }

  override async alarm(): Promise<void> {
    await this.alarmAt(Date.now());
  }

  /**
   * One retention step at `now` (the alarm's body; tests drive the clock through this): re-arm
   * while readable, purge once spent, delete everything `RECLAIM_GRACE_MS` after the purge.
   */
  async alarmAt(now: number): Promise<void> {
    const state = this.state();
    if (!state) {
      await this.ctx.storage.deleteAll();
      return;
    }
    if (!isSpent(state, now)) {
      await this.ctx.storage.setAlarm(state.expires_at);
      return;
    }
    if (state.purged_at === null) {
      await this.purge(now);
      return;
    }
    if (now < state.purged_at + RECLAIM_GRACE_MS) {
      await this.ctx.storage.setAlarm(state.purged_at + RECLAIM_GRACE_MS);
      return;
    }
    await this.reclaimAll(state);
  }

  /**
   * The backstop's call for a handoff whose expiry hour ended more than the grace ago and whose
   * marker is still there (its alarm was lost or kept failing): reclaims everything now if nothing
   * can be read any more.
   */
  async reclaim(now: number): Promise<ReclaimOutcome> {
    const state = this.state();
    if (!state) {
      await this.ctx.storage.deleteAll();
      return { outcome: "absent" };
    }
    if (!isSpent(state, now)) {
      await this.ctx.storage.setAlarm(state.expires_at);
      return { outcome: "live" };
    }
    if (state.purged_at === null) await this.purge(now);
    await this.reclaimAll(this.state()!);
    return { outcome: "reclaimed" };
  }

  /** Deletes the body and the team entry; the state stays for `RECLAIM_GRACE_MS` to answer late readers. */
  private async purge(now: number): Promise<void> {
    const state = this.state();
    if (!state || state.purged_at !== null) return;
    await deleteBody(this.env.BODIES, state.id);
    if (state.team !== null) await Promise.all([deleteTeamEntry(this.env.META, state.team, state.id), teamFor(this.env, state.team).dropCard(state.id)]);
    this.ctx.storage.kv.put(ACCESS_STATE_KEY, { ...this.state()!, purged_at: now });
    await this.ctx.storage.setAlarm(now + RECLAIM_GRACE_MS);
  }

  /** The marker goes first: if deleting it fails, the state (and the alarm's retry) are still here. */
  private async reclaimAll(state: AccessState): Promise<void> {
    await deleteExpiryMarker(this.env.BODIES, state.id, state.expires_at);
    // deleteAll also deletes the alarm (compatibility date 2026-02-24 or later).
    await this.ctx.storage.deleteAll();
  }
}
