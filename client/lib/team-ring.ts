import { userInfo } from "node:os";
import { join } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { CONFIG_VERSION, type ConfigFile, type ConfigFileV2, type TeamKeyEntry, type TeamMemberEntry } from "../../shared/local/local-files.js";
import { checkTeamKey, type TeamKey } from "../../shared/crypto/team-key.js";
import { type MemberIdentity, type MemberKey, checkIdentity } from "../../shared/crypto/member-key.js";
import { normalizeServerUrl } from "../../shared/api/share-url.js";
import { type ConfigLocation, configDirFor, readConfigFile, writeConfig } from "./config.js";

// The team key ring: per server in the config file (0600), newest first. The first key seals
// new team entries; the others open older ones. Beside it, this machine's member key (which signs
// its team cards) and its roster (the members it trusts, which check teammates' cards). None of
// them is sent anywhere: a server entry's tokens go to that server, its keys stay here.
// docs/storage.md ("The team key and its ring", "Team members and signed cards").

/** The most members a roster holds. */
const MAX_MEMBERS = 256;

export interface TeamRing {
  server: string;
  /** Newest first; empty when this machine holds no key for the server. */
  keys: TeamKey[];
  /** This machine's member key for the team; undefined before it joined with one (or made one). */
  identity: MemberIdentity | undefined;
  /** The members this machine trusts: its roster, and itself. */
  members: MemberKey[];
  configPath: string;
}

/** What a change to the ring did to the member key and the roster, for the command's report. */
export interface RingChange {
  ring: TeamRing;
  /** Members added to the roster, by name. */
  members_added: string[];
  /** Roster entries refused because the name is already this machine's for another key. */
  member_conflicts: string[];
  /** A member key was offered but this machine keeps the one it had. */
  identity_kept: boolean;
}

const serverOf = (server: string) => {
  const normalized = normalizeServerUrl(server, "the server");
  if (!normalized.ok) throw normalized.error;
  return normalized.value;
};

/**
 * The ring bound to `server`, each key checked (length, and the id derived from it): a bad entry
 * is an `invalid_document` error naming the file and the key id, and nothing is changed.
 */
export async function loadTeamRing(server: string, location: ConfigLocation): Promise<TeamRing> {
  const normalized = serverOf(server);
  const configPath = join(configDirFor(location), "config.json");
  const config = (await readConfigFile(configPath))?.config;
  const entry = config && "version" in config ? config.servers[keyFor(config.servers, normalized)] : undefined;
  const keys = (entry?.team_keys ?? []).map(({ id, key }) => ({ id, key }));
  for (const key of keys) {
    const problem = await checkTeamKey(key, `the team key ring for ${normalized} in ${configPath}`);
    if (problem) throw problem;
  }
  const identity = entry?.team_identity === undefined ? undefined : identityOf(entry.team_identity);
  if (identity) {
    const problem = await checkIdentity(identity, `the member key for ${normalized} in ${configPath}`);
    if (problem) throw problem;
  }
  return { server: normalized, keys, identity, members: rosterOf(entry?.team_members ?? [], identity), configPath };
}

/**
 * The name a member goes by when they name none: HANDOFF_PUBLISHER, else the login name. A team's
 * first member (and one from before member keys) is introduced by it; everyone else by the name
 * their inviter gave.
 */
export function defaultMemberName(env: Record<string, string | undefined>): string {
  const named = env.HANDOFF_PUBLISHER?.trim();
  if (named) return named.slice(0, 100);
  try {
    return userInfo().username || "member";
  } catch {
    return env.USER ?? env.LOGNAME ?? "member";
  }
}

const identityOf = ({ name, key, secret, intro }: MemberIdentity): MemberIdentity => ({ name, key, secret, intro });

/** The roster as it checks cards: the members this machine trusts, and itself. */
function rosterOf(entries: readonly TeamMemberEntry[], identity: MemberIdentity | undefined): MemberKey[] {
  const members = entries.map(({ name, key }) => ({ name, key }));
  return identity && !members.some((m) => m.key === identity.key) ? [{ name: identity.name, key: identity.key }, ...members] : members;
}

/**
 * Adds `keys` to the ring of `server` (those it lacks; `current` first when given, so it seals
 * new entries), and the team token when one is given; the server becomes the default one when
 * none is set. Writes the file once, 0600. Returns the ring after it.
 */
export async function addToTeamRing(
  location: ConfigLocation,
  server: string,
  change: { keys: TeamKey[]; current?: TeamKey; teamToken?: string | undefined; identity?: MemberIdentity | undefined; members?: readonly MemberKey[]; now: Date },
): Promise<RingChange> {
  const normalized = serverOf(server);
  const configPath = join(configDirFor(location), "config.json");
  const config = asCurrent((await readConfigFile(configPath))?.config);
  const existing = keyFor(config.servers, normalized);
  const entry = config.servers[existing] ?? {};
  delete config.servers[existing];
  const ring: TeamKeyEntry[] = [...(entry.team_keys ?? [])];
  const addedAt = change.now.toISOString();
  for (const key of change.keys) if (!ring.some((k) => k.id === key.id)) ring.push({ id: key.id, key: key.key, added_at: addedAt });
  if (change.current) {
    const index = ring.findIndex((k) => k.id === change.current!.id);
    const [current] = index >= 0 ? ring.splice(index, 1) : [{ id: change.current.id, key: change.current.key, added_at: addedAt }];
    ring.unshift(current!);
  }
  if (ring.length > 32)
    throw new HandoffError("invalid_document", `the team key ring for ${normalized} would hold ${ring.length} keys, more than 32`, {
      hint: `remove old keys from ${configPath} (entries older than every live link are no longer needed)`,
    });
  // The member key: a machine keeps the one it has (its cards are signed with it); a new one only
  // where there is none.
  const identityKept = change.identity !== undefined && entry.team_identity !== undefined && entry.team_identity.key !== change.identity.key;
  const identity = entry.team_identity ?? (change.identity === undefined ? undefined : { ...identityOf(change.identity), added_at: addedAt });
  const roster: TeamMemberEntry[] = [...(entry.team_members ?? [])];
  const added: string[] = [];
  const conflicts: string[] = [];
  for (const member of change.members ?? []) {
    if (roster.some((m) => m.key === member.key) || member.key === identity?.key) continue;
    // A name this machine already knows with another key is not taken over by an invite.
    if (roster.some((m) => m.name === member.name) || identity?.name === member.name) {
      conflicts.push(member.name);
      continue;
    }
    roster.push({ name: member.name, key: member.key, added_at: addedAt });
    added.push(member.name);
  }
  if (roster.length > MAX_MEMBERS)
    throw new HandoffError("invalid_document", `the team roster for ${normalized} would hold ${roster.length} members, more than ${MAX_MEMBERS}`, {
      hint: `remove members who left from ${configPath}`,
    });
  config.servers[normalized] = {
    ...entry,
    ...(change.teamToken === undefined ? {} : { team_token: change.teamToken }),
    team_keys: ring,
    ...(identity === undefined ? {} : { team_identity: identity }),
    ...(roster.length === 0 ? {} : { team_members: roster }),
  };
  config.default_server ??= normalized;
  await writeConfig(location, config);
  const own = identity === undefined ? undefined : identityOf(identity);
  return {
    ring: { server: normalized, keys: ring.map(({ id, key }) => ({ id, key })), identity: own, members: rosterOf(roster, own), configPath },
    members_added: added,
    member_conflicts: conflicts,
    identity_kept: identityKept,
  };
}

/** The key under which `servers` holds `server` (a hand-written file may spell it unnormalised). */
function keyFor(servers: Record<string, unknown>, server: string): string {
  return Object.keys(servers).find((key) => normalizeServerUrl(key, "a server").ok && serverOf(key) === server) ?? server;
}

function asCurrent(config: ConfigFile | undefined): ConfigFileV2 {
  if (config === undefined) return { version: CONFIG_VERSION, servers: {} };
  if ("version" in config) return { ...config, version: CONFIG_VERSION, servers: { ...config.servers } };
  // A legacy file: its tokens belong to its server, as everywhere else (client/config.ts).
  if (config.server === undefined) return { version: CONFIG_VERSION, servers: {} };
  const server = serverOf(config.server);
  return {
    version: CONFIG_VERSION,
    default_server: server,
    servers: { [server]: { ...(config.token ? { token: config.token } : {}), ...(config.team_token ? { team_token: config.team_token } : {}) } },
  };
}
