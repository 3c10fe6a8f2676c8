import { parseInvite } from "../../../shared/team/invite.js";
import { HandoffError, isHandoffError } from "../../../shared/errors.js";
import type { ConfigLocation } from "../../lib/config.js";
import { addToTeamRing, loadTeamRing } from "../../lib/team-ring.js";
import { type CallOptions, fetchTeamListing } from "../../lib/server-api.js";

export interface JoinResult {
  server: string;
  /** The team the token belongs to, as the server names it; null for a keys-only invite. */
  team: string | null;
  /** Keys this machine did not hold before. */
  keys_added: string[];
  /** The key that seals this machine's new team entries. */
  current_key: string;
  token_set: boolean;
  config_path: string;
  /** The name this machine's member key goes by (it signs its team cards); null when it has none. */
  member: string | null;
  /** True when the invite gave a member key but this machine kept the one it had. */
  member_key_kept: boolean;
  /** Members added to the roster (the ones this machine trusts), by name. */
  members_added: string[];
  /** Roster entries refused: a name this machine already knows with another key. */
  member_conflicts: string[];
}

/**
 * Joins with an invite: checks it whole (shape, server, token kind, every key, the member key and
 * its introductions), asks the server whether the token is live, and only then writes the token,
 * keys, member key and roster to the config file (0600), bound to the invite's server. A bad
 * invite or a refused token changes nothing.
 */
export async function joinTeam(location: ConfigLocation, text: string, call: CallOptions, now: Date): Promise<JoinResult> {
  const parsed = await parseInvite(text);
  if (!parsed.ok) throw parsed.error;
  const invite = parsed.value;
  let team: string | null = null;
  if (invite.team_token !== undefined) {
    try {
      team = (await fetchTeamListing(invite.server, { value: invite.team_token, server: invite.server }, call)).team;
    } catch (error) {
      if (isHandoffError(error) && (error.reason === "unauthorized" || error.reason === "forbidden")) {
        throw new HandoffError(error.reason, `${invite.server} refused the invite's team token (revoked, or issued by another server); nothing was saved`, {
          hint: "ask for a new invite with a live team token",
          cause: error,
        });
      }
      throw error;
    }
  }
  const before = new Set((await loadTeamRing(invite.server, location)).keys.map((k) => k.id));
  const change = await addToTeamRing(location, invite.server, {
    keys: invite.keys,
    current: invite.keys[0]!,
    teamToken: invite.team_token,
    identity: invite.member,
    members: invite.members,
    now,
  });
  const ring = change.ring;
  return {
    server: ring.server,
    team,
    keys_added: invite.keys.map((k) => k.id).filter((id) => !before.has(id)),
    current_key: ring.keys[0]!.id,
    token_set: invite.team_token !== undefined,
    config_path: ring.configPath,
    member: ring.identity?.name ?? null,
    member_key_kept: change.identity_kept,
    members_added: change.members_added,
    member_conflicts: change.member_conflicts,
  };
}
