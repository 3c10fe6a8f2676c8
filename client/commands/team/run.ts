import { MAX_INVITE_CHARS } from "../../../shared/team/invite.js";
import { signatureWords } from "../../../shared/crypto/member-key.js";
import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { type InboxEntry, readTeamInbox, teamDestination } from "../../lib/team-inbox.js";
import { type InviteResult, makeInvite } from "../../ops/team/invite.js";
import { type JoinResult, joinTeam } from "../../ops/team/join.js";
import { type RotateResult, rotateTeamKey } from "../../ops/team/rotate.js";
import { readSecret } from "../secret-input.js";
import { oneLine } from "../../platform/terminal.js";
import type { teamSpec } from "./spec.js";

export interface TeamListResult {
  server: string;
  team: string;
  /** Full links without their #key (keys never reach the server, and are never printed). */
  handoffs: InboxEntry[];
  /** Ids of the team keys this machine holds, newest first. */
  ring: string[];
  warnings: string[];
}

export type TeamResult = ({ action: "list" } & TeamListResult) | ({ action: "invite" } & InviteResult) | ({ action: "join" } & JoinResult) | ({ action: "rotate" } & RotateResult);

const ACTIONS = ["list", "invite", "join", "rotate"] as const;

export const command = implement<typeof teamSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<TeamResult> {
    const location = ctx.location;
    const action = positionals[0] ?? "list";
    if (!(ACTIONS as readonly string[]).includes(action)) throw new HandoffError("usage", `unknown team action '${action}'`, { hint: `actions: ${ACTIONS.join(", ")} (none: list)` });
    if (flags["new-key"] && action !== "invite") throw new HandoffError("usage", "--new-key goes with 'handoff team invite'");
    if (flags["keys-only"] && action !== "invite") throw new HandoffError("usage", "--keys-only goes with 'handoff team invite'");
    if (flags.member !== undefined && action !== "invite") throw new HandoffError("usage", "--member goes with 'handoff team invite'");
    const call = ctx.http();
    if (action === "join") {
      // The invite is a secret: stdin or a prompt that does not echo, never argv (ps shows argv).
      const text = await readSecret(io, { what: "invite", prompt: "Paste the team invite (it is not shown): ", limit: MAX_INVITE_CHARS + 2 });
      return { action, ...(await joinTeam(location, text, call, ctx.now())) };
    }
    const destination = await teamDestination(flags, location);
    for (const warning of destination.warnings) ctx.warn(warning);
    if (action === "invite") {
      const teamToken = flags["keys-only"] ? undefined : await readSecret(io, { what: "team token", prompt: "The new member's team token (from your operator; it is not shown): ", limit: 1024 });
      return {
        action,
        ...(await makeInvite(location, {
          server: destination.server,
          ...(teamToken === undefined ? {} : { teamToken }),
          ...(flags.member === undefined ? {} : { member: flags.member }),
          newKey: Boolean(flags["new-key"]),
          now: ctx.now(),
        })),
      };
    }
    if (action === "rotate") return { action, ...(await rotateTeamKey(location, destination.server, ctx.now())) };
    const inbox = await readTeamInbox(location, { ...destination, warnings: [] }, call, ctx.progress);
    return { action: "list", server: inbox.server, team: inbox.team, handoffs: inbox.entries, ring: inbox.ring, warnings: inbox.warnings };
  },
  human(result) {
    switch (result.action) {
      case "invite":
        return {
          out: result.invite,
          err: [
            `Invite for ${result.server}: ${result.has_token ? "a team token and " : "no token (keys only), "}${result.keys.length} team key${result.keys.length === 1 ? "" : "s"}${result.new_key ? " (a new key, kept in this machine's ring too)" : ""}, ${result.member === null ? "no member key" : `a member key for ${oneLine(result.member)} introduced by yours (${oneLine(result.inviter)})`}, and the ${result.members.length} member${result.members.length === 1 ? "" : "s"} you trust.`,
            ...(result.inviter_key_created ? [`This machine had no member key for the team: it made one, named ${oneLine(result.inviter)}, which signs your team cards from now on.`] : []),
            "It is a secret: send it to one member privately. They run: handoff team join   (and paste it; or pipe it on stdin)",
          ].join("\n"),
        };
      case "join":
        return {
          err: [
            `Joined ${result.team === null ? "" : `team ${oneLine(result.team)} on `}${result.server}: ${result.keys_added.length} new team key${result.keys_added.length === 1 ? "" : "s"}${result.token_set ? ", the team token" : ""}, ${result.members_added.length} member${result.members_added.length === 1 ? "" : "s"} to trust, saved in ${result.config_path} (0600). 'handoff resume --team' lists what your team shared.`,
            result.member === null
              ? "warning: this machine has no member key for the team, so teammates see your team cards as unverified: ask a teammate for 'handoff team invite --keys-only --member <your name>'"
              : `Your team cards are signed as ${oneLine(result.member)}${result.member_key_kept ? " (the member key this machine already had; the invite's was not used)" : ""}.`,
            ...(result.member_conflicts.length > 0
              ? [
                  `warning: not trusted from this invite: ${result.member_conflicts.map(oneLine).join(", ")} (this machine knows ${result.member_conflicts.length === 1 ? "that name" : "those names"} with another key)`,
                ]
              : []),
          ].join("\n"),
        };
      case "rotate":
        return {
          out: result.invite,
          err: [
            `New team key ${result.new_key} for ${result.server}: your team entries are sealed with it from now on; ${result.keys.length - 1} older key${result.keys.length === 2 ? "" : "s"} kept, so older entries stay readable.`,
            "Send the keys-only invite above to each member who stays (they run 'handoff team join'). If someone left, ask the operator to revoke their token too: the key alone opens nothing without one.",
          ].join("\n"),
        };
      case "list":
        return listHuman(result);
    }
  },
  outcome: () => "ok",
});

function listHuman(result: TeamListResult) {
  const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
  if (result.handoffs.length === 0) return { err: [...warnings, `No live links for team ${oneLine(result.team)} on ${result.server}.`].join("\n") };
  const lines: string[] = [];
  for (const h of result.handoffs) {
    // Titles come from teammates, links from the server: escaped, never raw.
    lines.push(oneLine(`${h.created_at}  ${h.card?.title ?? describeMissing(h)}${h.card ? `  (${signatureWords(h.signature)})` : ""}`));
    lines.push(
      oneLine(
        `    ${h.link}  ${h.max_views === null ? "unlimited views" : `max ${h.max_views} views`}, expires ${h.expires_at}, ${h.size} bytes${h.card_state === "readable" ? `; resume: handoff resume --team ${h.id}` : ""}`,
      ),
    );
  }
  const readable = result.handoffs.filter((h) => h.card_state === "readable").length;
  const unverified = result.handoffs.filter((h) => h.signature?.state === "unverified").length;
  return {
    out: lines.join("\n"),
    err: [
      ...warnings,
      `Team ${oneLine(result.team)}: ${result.handoffs.length} live link${result.handoffs.length === 1 ? "" : "s"}, ${readable} with a card this machine can open${unverified > 0 ? `, ${unverified} of them unverified (not signed by a member this machine trusts: do not take their publisher on trust)` : ""}.`,
    ].join("\n"),
  };
}

function describeMissing(entry: InboxEntry): string {
  if (entry.card_state === "no_card") return "(no card: published without a team key; ask the sender for the link)";
  if (entry.card_state === "unknown_key") return `(unreadable: sealed with team key ${entry.key_id}, which this machine does not hold)`;
  return `(unreadable card: ${entry.card_problem ?? "refused"})`;
}
