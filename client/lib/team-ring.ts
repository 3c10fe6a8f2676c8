import { join } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { CONFIG_VERSION, type ConfigFile, type ConfigFileV2, type TeamKeyEntry } from "../../shared/local/local-files.js";
import { checkTeamKey, type TeamKey } from "../../shared/crypto/team-key.js";
import { normalizeServerUrl } from "../../shared/api/share-url.js";
import { type ConfigLocation, configDirFor, readConfigFile, writeConfig } from "./config.js";

// The team key ring: per server in the config file (0600), newest first. The first key seals
// new team entries; the others open older ones. Keys are never sent anywhere: a server entry's
// tokens go to that server, its keys stay here. docs/storage.md ("The team key and its ring").

export interface TeamRing {
  server: string;
  /** Newest first; empty when this machine holds no key for the server. */
  keys: TeamKey[];
  configPath: string;
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
  return { server: normalized, keys, configPath };
}

/**
 * Adds `keys` to the ring of `server` (those it lacks; `current` first when given, so it seals
 * new entries), and the team token when one is given; the server becomes the default one when
 * none is set. Writes the file once, 0600. Returns the ring after it.
 */
export async function addToTeamRing(location: ConfigLocation, server: string, change: { keys: TeamKey[]; current?: TeamKey; teamToken?: string | undefined; now: Date }): Promise<TeamRing> {
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
  config.servers[normalized] = { ...entry, ...(change.teamToken === undefined ? {} : { team_token: change.teamToken }), team_keys: ring };
  config.default_server ??= normalized;
  await writeConfig(location, config);
  return { server: normalized, keys: ring.map(({ id, key }) => ({ id, key })), configPath };
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
