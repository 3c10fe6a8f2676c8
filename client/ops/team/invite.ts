import { type Invite, encodeInvite } from "../../../shared/crypto/invite.js";
import { newTeamKey } from "../../../shared/crypto/team-key.js";
import { HandoffError } from "../../../shared/errors.js";
import { tokenKind } from "../../../shared/ids/tokens.js";
import type { ConfigLocation } from "../../lib/config.js";
import { addToTeamRing, loadTeamRing } from "../../lib/team-ring.js";

export interface InviteResult {
  server: string;
  /** The invite string: a secret, for one new member, passed to 'handoff team join' on stdin. */
  invite: string;
  /** Key ids it carries, newest first. */
  keys: string[];
  /** Whether it carries a team token (a keys-only invite, after a rotation, does not). */
  has_token: boolean;
  /** True when this invite started the team's key (--new-key): this machine now holds it too. */
  new_key: boolean;
}

/**
 * An invite for `server`: the inviter's whole key ring (so a new member reads older entries
 * too) and, unless `teamToken` is absent (keys only), the new member's team token, which the
 * operator issued for them. `newKey` starts the team's first key, kept in this machine's ring.
 */
export async function makeInvite(location: ConfigLocation, input: { server: string; teamToken?: string; newKey: boolean; now: Date }): Promise<InviteResult> {
  if (input.teamToken !== undefined && tokenKind(input.teamToken) !== "team") {
    throw new HandoffError("invalid_option", "the token for the invite is not a team token (hdt_...)", {
      hint: "ask your operator for a team token for the new member ('npm run team -- token <team>')",
    });
  }
  let ring = await loadTeamRing(input.server, location);
  if (input.newKey && ring.keys.length > 0) {
    throw new HandoffError("usage", `this machine already holds ${ring.keys.length} team key${ring.keys.length === 1 ? "" : "s"} for ${ring.server}: --new-key starts a team's first key only`, {
      hint: "to replace the key (someone left), run 'handoff team rotate'",
    });
  }
  if (input.newKey) {
    const key = await newTeamKey();
    ring = await addToTeamRing(location, input.server, { keys: [key], current: key, now: input.now });
  }
  if (ring.keys.length === 0) {
    throw new HandoffError("not_configured", `this machine holds no team key for ${ring.server}, so it cannot invite`, {
      hint: "join with an invite from a teammate first; or, for a team's very first invite, pass --new-key to make its key",
    });
  }
  const invite: Invite = { server: ring.server, ...(input.teamToken === undefined ? {} : { team_token: input.teamToken }), keys: ring.keys };
  return { server: ring.server, invite: encodeInvite(invite), keys: ring.keys.map((k) => k.id), has_token: input.teamToken !== undefined, new_key: input.newKey };
}
