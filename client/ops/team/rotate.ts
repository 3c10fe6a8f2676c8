import { encodeInvite } from "../../../shared/team/invite.js";
import { newTeamKey } from "../../../shared/crypto/team-key.js";
import { HandoffError } from "../../../shared/errors.js";
import type { ConfigLocation } from "../../lib/config.js";
import { addToTeamRing, loadTeamRing } from "../../lib/team-ring.js";

export interface RotateResult {
  server: string;
  /** The new key: it seals this machine's team entries from now on. */
  new_key: string;
  /** The whole ring, newest first: older keys stay, so older entries stay readable. */
  keys: string[];
  /** A keys-only invite for the members who stay ('handoff team join' merges it and its roster; tokens unchanged). */
  invite: string;
}

/**
 * A new team key at the head of the ring. Older keys are kept: entries sealed with them stay
 * readable. The new key reaches the others through the keys-only invite this returns.
 */
export async function rotateTeamKey(location: ConfigLocation, server: string, now: Date): Promise<RotateResult> {
  const ring = await loadTeamRing(server, location);
  if (ring.keys.length === 0) {
    throw new HandoffError("not_configured", `this machine holds no team key for ${ring.server}: there is nothing to rotate`, { hint: "join with an invite first ('handoff team join')" });
  }
  const key = await newTeamKey();
  const after = (await addToTeamRing(location, server, { keys: [key], current: key, now })).ring;
  // The roster travels too, so everyone who joins the invite learns every member this machine trusts.
  return { server: after.server, new_key: key.id, keys: after.keys.map((k) => k.id), invite: encodeInvite({ server: after.server, keys: after.keys, members: after.members }) };
}
