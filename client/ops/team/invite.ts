import { type Invite, encodeInvite } from "../../../shared/team/invite.js";
import { type MemberIdentity, memberNameProblem, newMemberIdentity } from "../../../shared/crypto/member-key.js";
import { newTeamKey } from "../../../shared/crypto/team-key.js";
import { HandoffError } from "../../../shared/errors.js";
import { tokenKind } from "../../../shared/ids/tokens.js";
import type { ConfigLocation } from "../../lib/config.js";
import { type TeamRing, addToTeamRing, defaultMemberName, loadTeamRing } from "../../lib/team-ring.js";

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
  /** The member key it gives, by name (introduced by this machine's); null when it gives none. */
  member: string | null;
  /** The roster it carries: the members this machine trusts, by name. */
  members: string[];
  /** The name this machine's own member key goes by (it signs the introduction and its own cards). */
  inviter: string;
  /** True when this machine made its own member key for this invite (it had none). */
  inviter_key_created: boolean;
}

/**
 * An invite for `server`: the inviter's whole key ring (so a new member reads older entries
 * too), its roster (so the new member checks teammates' cards), and, unless `teamToken` is absent
 * (keys only), the new member's team token, which the operator issued for them. `member` names
 * the new member: the invite then carries a member key made for them and introduced by this
 * machine's, which signs their cards; a token invite needs one. `newKey` starts the team's first
 * key, kept in this machine's ring. A machine without a member key of its own makes one first
 * (named `HANDOFF_PUBLISHER` or the login name).
 */
export async function makeInvite(location: ConfigLocation, input: { server: string; teamToken?: string; member?: string; newKey: boolean; now: Date }): Promise<InviteResult> {
  if (input.teamToken !== undefined && tokenKind(input.teamToken) !== "team") {
    throw new HandoffError("invalid_option", "the token for the invite is not a team token (hdt_...)", {
      hint: "ask your operator for a team token for the new member ('npm run team -- token <team>')",
    });
  }
  if (input.teamToken !== undefined && input.member === undefined) {
    throw new HandoffError("usage", "name the new member: an invite with a team token gives them a member key, which signs their team cards under that name", {
      hint: "run 'handoff team invite --member NAME' (the name teammates will see on their cards)",
    });
  }
  const memberProblem = input.member === undefined ? undefined : memberNameProblem(input.member);
  if (memberProblem) throw new HandoffError("invalid_option", `--member: ${memberProblem}`, { hint: "pass the name teammates know them by, e.g. --member ana", details: { option: "member" } });
  let ring = await loadTeamRing(input.server, location);
  if (input.newKey && ring.keys.length > 0) {
    throw new HandoffError("usage", `this machine already holds ${ring.keys.length} team key${ring.keys.length === 1 ? "" : "s"} for ${ring.server}: --new-key starts a team's first key only`, {
      hint: "to replace the key (someone left), run 'handoff team rotate'",
    });
  }
  if (input.newKey) {
    const key = await newTeamKey();
    ring = (await addToTeamRing(location, input.server, { keys: [key], current: key, now: input.now })).ring;
  }
  if (ring.keys.length === 0) {
    throw new HandoffError("not_configured", `this machine holds no team key for ${ring.server}, so it cannot invite`, {
      hint: "join with an invite from a teammate first; or, for a team's very first invite, pass --new-key to make its key",
    });
  }
  const created = ring.identity === undefined;
  const inviter = ring.identity ?? (await newMemberIdentity(defaultMemberName(location.env)));
  let member: MemberIdentity | undefined;
  if (input.member !== undefined) {
    const taken = ring.members.find((m) => m.name === input.member);
    if (taken !== undefined) {
      throw new HandoffError("invalid_option", `${input.member} is already a member this machine knows (with its own key): a second key under that name would let either sign as the other`, {
        hint: "choose another name for the new member (say, 'ana-laptop'), or send the member a keys-only invite without --member",
        details: { option: "member" },
      });
    }
    member = await newMemberIdentity(input.member, inviter);
  }
  // This machine trusts the member it introduces from now on, and keeps the key it signed with.
  if (created || member !== undefined) ring = await remember(location, ring, inviter, member, input.now);
  const invite: Invite = { server: ring.server, ...(input.teamToken === undefined ? {} : { team_token: input.teamToken }), keys: ring.keys, members: ring.members, ...(member ? { member } : {}) };
  return {
    server: ring.server,
    invite: encodeInvite(invite),
    keys: ring.keys.map((k) => k.id),
    has_token: input.teamToken !== undefined,
    new_key: input.newKey,
    member: member?.name ?? null,
    members: ring.members.map((m) => m.name),
    inviter: inviter.name,
    inviter_key_created: created,
  };
}

async function remember(location: ConfigLocation, ring: TeamRing, inviter: MemberIdentity, member: MemberIdentity | undefined, now: Date): Promise<TeamRing> {
  const change = await addToTeamRing(location, ring.server, { keys: [], identity: inviter, members: member ? [{ name: member.name, key: member.key }] : [], now });
  return change.ring;
}
