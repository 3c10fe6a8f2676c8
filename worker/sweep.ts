import type { Bindings } from "./bindings.js";
import { RECLAIM_GRACE_MS } from "./durable/access-state.js";
import { deleteBody } from "./storage/bodies-r2.js";
import { accessFor, teamFor } from "./storage/durable-objects.js";
import { listDueMarkers } from "./storage/expiry-index.js";
import { deleteTeamEntry } from "./storage/meta-kv.js";

/** A marker is left for its object's own alarm this long past the grace before the backstop acts. */
export const BACKSTOP_DELAY_MS = 3_600_000;
/** At most this many pages of 1,000 markers per run; a larger backlog drains over the next runs. */
const MAX_PAGES = 10;

export interface SweepResult {
  /** Markers listed as due: handoffs whose own alarm did not finish the job. */
  due: number;
  /** Of those, objects whose storage this run deleted. */
  reclaimed: number;
  /** Of those, markers with no object behind them (only the body, entry and marker were left). */
  orphans: number;
  /** The ids it touched (at most 10,000), for logs and for tests that check it touched nothing else. */
  ids: string[];
}

/**
 * The cron backstop for retention. Each handoff's Durable Object reclaims its own storage (body,
 * team entry, expiry marker, then `deleteAll`) through its alarm; this finds the ones whose alarm
 * was lost or kept failing through the expiry index, oldest hour first, and stops at the first hour
 * not yet due. Its work follows what was left behind: no listing of bodies or team entries.
 */
export async function sweepExpired(env: Bindings, now: number): Promise<SweepResult> {
  const due = await listDueMarkers(env.BODIES, now - RECLAIM_GRACE_MS - BACKSTOP_DELAY_MS, MAX_PAGES);
  let reclaimed = 0;
  let orphans = 0;
  for (const marker of due) {
    const { outcome } = await accessFor(env, marker.id).reclaim(now);
    if (outcome === "reclaimed") reclaimed++;
    if (outcome !== "absent") continue;
    // The object is gone but its marker is not: remove what it may have left, then the marker.
    orphans++;
    await deleteBody(env.BODIES, marker.id);
    if (marker.team !== null) await Promise.all([deleteTeamEntry(env.META, marker.team, marker.id), teamFor(env, marker.team).dropCard(marker.id)]);
    await env.BODIES.delete(marker.key);
  }
  if (due.length > 0) console.log(`sweep: ${due.length} overdue handoffs, ${reclaimed} reclaimed, ${orphans} orphaned markers removed`);
  return { due: due.length, reclaimed, orphans, ids: due.map((marker) => marker.id) };
}
