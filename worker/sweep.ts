import type { Bindings } from "./bindings.js";
import { deleteExpiredBodies } from "./storage/bodies-r2.js";
import { deleteExpiredTeamEntries } from "./storage/meta-kv.js";

export interface SweepResult {
  bodies: number;
  team_entries: number;
}

/**
 * The cron backstop for retention: each Durable Object's alarm deletes its body and KV entry at
 * expiry, and this removes whatever an alarm left behind (a failed delete, a lost alarm), judged
 * by the expiry recorded next to each R2 object and KV key.
 */
export async function sweepExpired(env: Bindings, now: number): Promise<SweepResult> {
  const [bodies, teamEntries] = await Promise.all([deleteExpiredBodies(env.BODIES, now), deleteExpiredTeamEntries(env.META, now)]);
  if (bodies + teamEntries > 0) console.log(`sweep: deleted ${bodies} expired bodies and ${teamEntries} team entries`);
  return { bodies, team_entries: teamEntries };
}
