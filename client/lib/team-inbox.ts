import type { TeamHandoff } from "../../shared/api/handoff.js";
import type { MemberKey, SignerCheck } from "../../shared/crypto/member-key.js";
import { type TeamCard, openTeamCard } from "../../shared/crypto/team-card.js";
import type { TeamKey } from "../../shared/crypto/team-key.js";
import { HandoffError } from "../../shared/errors.js";
import { type ConfigLocation, resolvePublishConfig } from "./config.js";
import { type CallOptions, fetchTeamListing } from "./server-api.js";
import { loadTeamRing } from "./team-ring.js";

// The team inbox as a member sees it: the server's listing with each sealed card opened with
// this machine's key ring, and each card's signature checked against its roster. A card is shown
// as from its publisher only when that publisher's key signed it; any other card is shown as
// unverified, its claimed publisher apart. Share keys stay in memory, apart from what is printed
// or returned as JSON: a listing never shows one.

/** How an entry's card reads here: opened, absent (published without one), sealed with a key this ring lacks, refused. */
export type CardState = "readable" | "no_card" | "unknown_key" | "unreadable";

export interface InboxEntry extends Omit<TeamHandoff, "card"> {
  /** The share page without its #key. */
  link: string;
  card_state: CardState;
  /** The opened card; null unless card_state is "readable". Its `publisher` only when `signature` is verified. */
  card: TeamCard | null;
  /** The card's publisher, when the signature checks out against this machine's roster; null otherwise. */
  publisher: string | null;
  /** Whether the card is signed by the member it names (verified, and by whom introduced), or why not; null when the card is not readable. */
  signature: SignerCheck | null;
  /** An unverified card's self-declared publisher, kept apart: never shown as who it is from. */
  claimed_publisher: string | null;
  /** The team key the card names (null: none, or a card too damaged to say). */
  key_id: string | null;
  /** Why the card could not be used (unknown_key, unreadable); null otherwise. */
  card_problem: string | null;
}

export interface TeamInbox {
  server: string;
  team: string;
  entries: InboxEntry[];
  /** Ids of the keys this machine holds for the server, newest first. */
  ring: string[];
  warnings: string[];
  /** The share key of each readable entry, by id: for resuming one, never printed. */
  shareKeys: ReadonlyMap<string, string>;
}

/** The server and team token a team command uses, or a `not_configured` error that says how to get them. */
export async function teamDestination(flags: { server?: string | undefined }, location: ConfigLocation) {
  const config = await resolvePublishConfig({ flags: { server: flags.server }, env: location.env, home: location.home });
  if (!config.server) {
    throw new HandoffError("not_configured", "no publishing server is configured", { hint: `pass --server URL, set HANDOFF_SERVER, or join a team with an invite: 'handoff team join'` });
  }
  return { server: config.server, teamToken: config.teamToken, configPath: config.configPath, warnings: config.warnings };
}

/** Lists the team inbox of `server` and opens every card it can. */
export async function readTeamInbox(
  location: ConfigLocation,
  destination: { server: string; teamToken: string | undefined; configPath: string; warnings: string[] },
  call: CallOptions,
  progress: <T>(message: string, work: Promise<T>) => Promise<T>,
): Promise<TeamInbox> {
  const { server, teamToken } = destination;
  if (teamToken === undefined) {
    throw new HandoffError("not_configured", `the team inbox needs a team token for ${server}`, {
      hint: `join with an invite from your operator or a teammate: 'handoff team join' (reads it from stdin or a prompt); or set HANDOFF_TEAM_TOKEN with HANDOFF_SERVER=${server}`,
    });
  }
  const ring = await loadTeamRing(server, location);
  const listing = await progress(`listing ${server} (waiting for the server)...`, fetchTeamListing(server, { value: teamToken, server }, call));
  const shareKeys = new Map<string, string>();
  const entries = await Promise.all(listing.handoffs.map((handoff) => openEntry(server, handoff, ring.keys, ring.members, shareKeys)));
  const warnings = [...destination.warnings];
  if (ring.keys.length === 0 && entries.some((e) => e.card_state !== "no_card")) {
    warnings.push(`this machine holds no team key for ${server}: titles cannot be shown (join with an invite: 'handoff team join')`);
  }
  return { server, team: listing.team, entries, ring: ring.keys.map((k) => k.id), warnings, shareKeys };
}

async function openEntry(server: string, handoff: TeamHandoff, ring: TeamKey[], roster: MemberKey[], shareKeys: Map<string, string>): Promise<InboxEntry> {
  const { card: sealed, ...rest } = handoff;
  const base = { ...rest, link: `${server}${handoff.url}`, publisher: null, signature: null, claimed_publisher: null };
  if (sealed === null) return { ...base, card_state: "no_card", card: null, key_id: null, card_problem: null };
  const opened = await openTeamCard(sealed, handoff.id, ring, roster);
  if (opened.state === "readable") {
    shareKeys.set(handoff.id, opened.share_key);
    const { publisher, ...card } = opened.card;
    const verified = opened.signature.state === "verified";
    return {
      ...base,
      card_state: "readable",
      card: verified ? opened.card : card,
      publisher: verified ? (publisher ?? null) : null,
      signature: opened.signature,
      claimed_publisher: verified ? null : (publisher ?? null),
      key_id: opened.key_id,
      card_problem: null,
    };
  }
  if (opened.state === "unknown_key") {
    return {
      ...base,
      card_state: "unknown_key",
      card: null,
      key_id: opened.key_id,
      card_problem: `sealed with team key ${opened.key_id}, which this machine does not hold (ask a teammate for an invite with it)`,
    };
  }
  return { ...base, card_state: "unreadable", card: null, key_id: opened.key_id, card_problem: opened.why };
}
