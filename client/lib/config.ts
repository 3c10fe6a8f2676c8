import type * as z from "zod/mini";
import { type ConfigFile, checkLocalFile, localFileSchemas } from "../../shared/local/local-files.js";
import { HandoffError } from "../../shared/errors.js";
import { normalizeServerUrl } from "../../shared/api/share-url.js";
import { CONFIG_DIR, CONFIG_ENV, type ConfigLocation, configDirFor, configFileFor } from "./config-location.js";
import { describeFsError, ensurePrivateDir, octal, replaceFile } from "../platform/fs.js";

// Publishing configuration, resolved once at the top of a command. Every credential is bound to
// one server (its origin and path prefix) and is sent to that server only:
// - a flag token (`flags.token`, `flags.teamToken`) to the `--server` flag;
// - HANDOFF_TOKEN / HANDOFF_TEAM_TOKEN to HANDOFF_SERVER, and only when it is set;
// - a config file token to the server entry it sits in.
// Where the command goes is chosen separately (flag > env > the file's default server); then only
// the credentials bound to that server apply, flag over env over file.

export const ENV = { server: "HANDOFF_SERVER", token: "HANDOFF_TOKEN", teamToken: "HANDOFF_TEAM_TOKEN" } as const;

export type ConfigSource = "flag" | "env" | "file" | "none";

export interface PublishFlags {
  server?: string | undefined;
  token?: string | undefined;
  teamToken?: string | undefined;
}

/** A credential and the one server it may be sent to (normalised base URL). */
export interface BoundToken {
  value: string;
  server: string;
}

export interface PublishConfig {
  server?: string;
  token?: string;
  teamToken?: string;
  source: { server: ConfigSource; token: ConfigSource; teamToken: ConfigSource };
  /** `<configDir>/config.json`, whether or not it exists. */
  configPath: string;
  /** `$XDG_CONFIG_HOME/handoff`, also the parent of the published store. */
  configDir: string;
  /** For stderr, always shown: a tightened file mode, a token not sent to a different server. */
  warnings: string[];
}

// Where the config lives, in a module of its own: the hook finds the file without loading zod.
export { type ConfigLocation, configDirFor, configFileFor } from "./config-location.js";

type TokenKey = "token" | "teamToken";
const TOKEN_NAMES: Record<TokenKey, string> = { token: "publish token", teamToken: "team token" };

/** One layer's credentials and the server they are bound to (undefined: bound to none, never sent). */
interface Layer {
  source: "flag" | "env" | "file";
  server?: string | undefined;
  token?: string | undefined;
  teamToken?: string | undefined;
}

/** Everything the three layers say, read and checked once. */
interface Layers {
  flag: Layer;
  env: Layer;
  /** One entry per server in the config file. */
  file: Layer[];
  defaultServer?: string;
  configPath: string;
  configDir: string;
  warnings: string[];
}

const given = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

async function readLayers(input: { flags: PublishFlags } & ConfigLocation): Promise<Layers> {
  const { flags, env } = input;
  const configDir = configDirFor(input);
  const configPath = configFileFor(input);
  const flag: Layer = { source: "flag", token: given(flags.token), teamToken: given(flags.teamToken) };
  const envLayer: Layer = { source: "env", token: given(env[ENV.token]), teamToken: given(env[ENV.teamToken]) };
  checkTokens(flag, { token: "--token", teamToken: "--team-token" });
  checkTokens(envLayer, { token: ENV.token, teamToken: ENV.teamToken });
  const flagServer = given(flags.server);
  if (flagServer !== undefined) flag.server = normalizeOrThrow(flagServer, "--server", false);
  const envServer = given(env[ENV.server]);
  if (envServer !== undefined) envLayer.server = normalizeOrThrow(envServer, ENV.server, false);
  const warnings: string[] = [];
  for (const [layer, label, serverLabel] of [
    [flag, "on the command line", "--server"],
    [envLayer, "in the environment", ENV.server],
  ] as const) {
    if (layer.server !== undefined) continue;
    for (const key of ["token", "teamToken"] as const) {
      if (layer[key] === undefined) continue;
      warnings.push(`the ${TOKEN_NAMES[key]} ${label} is not used: it is bound to ${serverLabel}, which is not set`);
      layer[key] = undefined;
    }
  }
  // Always read: its warnings (a token others could read) are shown whatever the command needs.
  const file = await readConfigFile(configPath);
  if (file) warnings.push(...file.warnings);
  const layers: Layers = { flag, env: envLayer, file: [], configPath, configDir, warnings };
  if (file === undefined) return layers;
  const config = file.config;
  if ("version" in config) {
    if (config.default_server !== undefined) layers.defaultServer = normalizeOrThrow(config.default_server, `default_server in ${configPath}`, true);
    const seen = new Set<string>();
    for (const [key, entry] of Object.entries(config.servers)) {
      const server = normalizeOrThrow(key, `the server '${key}' in ${configPath}`, true);
      if (seen.has(server)) throw new HandoffError("invalid_document", `${configPath} lists ${server} twice`, { hint: "keep one entry per server" });
      seen.add(server);
      layers.file.push({ source: "file", server, token: entry.token, teamToken: entry.team_token });
    }
  } else {
    const server = config.server === undefined ? undefined : normalizeOrThrow(config.server, `server in ${configPath}`, true);
    if (server !== undefined) layers.defaultServer = server;
    if (server === undefined && (config.token !== undefined || config.team_token !== undefined)) {
      warnings.push(`the token in ${configPath} is not used: it names no server to bind it to; add "server" next to it (docs/storage.md)`);
    } else {
      layers.file.push({ source: "file", server, token: config.token, teamToken: config.team_token });
    }
  }
  return layers;
}

/** The credentials bound to `server`, flag over env over file; never one bound elsewhere. */
function credentialsFrom(layers: Layers, server: string): Pick<PublishConfig, TokenKey> & { source: Record<TokenKey, ConfigSource> } {
  const result: Pick<PublishConfig, TokenKey> & { source: Record<TokenKey, ConfigSource> } = { source: { token: "none", teamToken: "none" } };
  const candidates = [layers.flag, layers.env, ...layers.file].filter((layer) => layer.server === server);
  for (const key of ["token", "teamToken"] as const) {
    const layer = candidates.find((l) => l[key] !== undefined);
    if (layer === undefined) continue;
    result[key] = layer[key]!;
    result.source[key] = layer.source;
  }
  return result;
}

/**
 * Resolves where to publish and with which credentials: the server from `--server`, else
 * HANDOFF_SERVER, else the config file's default server; then the tokens bound to that server.
 * A token bound to another server is never used (a warning says so when it would have been).
 * Throws `invalid_option` for a bad flag or variable, `invalid_document` for a bad file,
 * `unsafe_store` for a file another user owns.
 */
export async function resolvePublishConfig(input: { flags: PublishFlags } & ConfigLocation): Promise<PublishConfig> {
  const layers = await readLayers(input);
  const { configPath, configDir, warnings } = layers;
  const [server, serverSource]: [string | undefined, ConfigSource] =
    layers.flag.server !== undefined
      ? [layers.flag.server, "flag"]
      : layers.env.server !== undefined
        ? [layers.env.server, "env"]
        : layers.defaultServer !== undefined
          ? [layers.defaultServer, "file"]
          : [undefined, "none"];
  const result: PublishConfig = { source: { server: serverSource, token: "none", teamToken: "none" }, configPath, configDir, warnings };
  if (server === undefined) return result;
  result.server = server;
  const bound = credentialsFrom(layers, server);
  Object.assign(result.source, bound.source);
  for (const key of ["token", "teamToken"] as const) {
    if (bound[key] !== undefined) result[key] = bound[key];
    else {
      // Say why a token the user set is not used, rather than publish anonymously in silence.
      for (const layer of [layers.flag, layers.env, ...layers.file.filter((l) => l.server === layers.defaultServer)]) {
        if (layer[key] === undefined || layer.server === server) continue;
        warnings.push(`not sending the ${TOKEN_NAMES[key]} from ${sourceName(layer.source, configPath)} to ${server}: it is bound to ${layer.server}`);
      }
    }
  }
  return result;
}

/**
 * The credentials bound to `server` (a share link's server, a published record's server), and
 * the config warnings to show. Nothing bound to another server is ever returned.
 *
 * @example
 * ```ts
 * const { teamToken } = await credentialsFor("https://handoff.example.com", { env: process.env, home: os.homedir() });
 * ```
 */
export async function credentialsFor(server: string, location: ConfigLocation): Promise<{ token?: BoundToken; teamToken?: BoundToken; warnings: string[]; configPath: string }> {
  const normalized = normalizeServerUrl(server, "the server");
  const layers = await readLayers({ flags: {}, ...location });
  const out: { token?: BoundToken; teamToken?: BoundToken; warnings: string[]; configPath: string } = { warnings: layers.warnings, configPath: layers.configPath };
  if (!normalized.ok) return out;
  const bound = credentialsFrom(layers, normalized.value);
  if (bound.token !== undefined) out.token = { value: bound.token, server: normalized.value };
  if (bound.teamToken !== undefined) out.teamToken = { value: bound.teamToken, server: normalized.value };
  // localhost, 127.0.0.1 and [::1] on one port are one server to the user, two to the binding:
  // a token left unsent for that reason is said, never skipped in silence.
  for (const key of ["token", "teamToken"] as const) {
    if (out[key] !== undefined) continue;
    for (const layer of [layers.env, ...layers.file]) {
      if (layer[key] === undefined || layer.server === undefined || !loopbackAliases(layer.server, normalized.value)) continue;
      out.warnings.push(
        `not sending the ${TOKEN_NAMES[key]} bound to ${layer.server} to ${normalized.value}: a token goes only to the exact server it is bound to; bind it to ${normalized.value} too, or use the link with the host name the token names`,
      );
    }
  }
  return out;
}

/** Two loopback spellings of one local server: same scheme, port and path, host localhost / 127.x / [::1]. */
function loopbackAliases(a: string, b: string): boolean {
  if (a === b) return false;
  try {
    const [x, y] = [new URL(a), new URL(b)];
    const loopback = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
    return loopback(x.hostname) && loopback(y.hostname) && x.protocol === y.protocol && x.port === y.port && x.pathname === y.pathname;
  } catch {
    return false;
  }
}

function sourceName(source: "flag" | "env" | "file", configPath: string): string {
  return source === "flag" ? "the command line" : source === "env" ? "the environment" : configPath;
}

function normalizeOrThrow(raw: string, label: string, inFile: boolean): string {
  const result = normalizeServerUrl(raw, label);
  if (result.ok) return result.value;
  if (!inFile) throw result.error;
  throw new HandoffError("invalid_document", result.error.message, { hint: result.error.hint ?? "fix the server key in the config file" });
}

function checkTokens(layer: { token?: string | undefined; teamToken?: string | undefined }, labels: { token: string; teamToken: string }): void {
  for (const key of ["token", "teamToken"] as const) {
    const value = layer[key];
    const checked = value === undefined ? undefined : checkLocalFile(localFileSchemas().TokenSchema, value);
    if (checked !== undefined && !checked.success) {
      // The value is a secret: name where it came from, never echo it.
      throw new HandoffError("invalid_option", `${labels[key]} ${checked.error.issues[0]?.message ?? "is malformed"}`, {
        hint: "copy the token again without surrounding spaces or line breaks",
      });
    }
  }
}

/**
 * Reads and validates the config file; `undefined` when it does not exist. A file holding a token
 * that others can read, or any file others can write, is tightened to 0600 with a warning (the
 * command still works; the warning says to consider the token exposed). A file owned by another
 * user is refused: it could point our tokens at a server of their choosing.
 */
export async function readConfigFile(path: string): Promise<{ config: ConfigFile; warnings: string[] } | undefined> {
  let handle;
  try {
    // Loaded here, not at import: node:fs/promises brings Node's stream and readline modules (about 2 ms), and every command's start-up reaches this module while few read the config.
    const { open } = await import("node:fs/promises");
    handle = await open(path, "r");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new HandoffError("unreadable", `cannot read the config file ${path}: ${describeFsError(cause)}`, { hint: "check its permissions", cause });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new HandoffError("unreadable", `the config file ${path} is not a regular file`);
    if (process.platform !== "win32" && info.uid !== process.getuid?.()) {
      throw new HandoffError("unsafe_store", `the config file ${path} belongs to another user (uid ${info.uid})`, {
        hint: "remove it, or set XDG_CONFIG_HOME to a folder you own",
      });
    }
    const text = await handle.readFile("utf8");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new HandoffError("invalid_document", `the config file ${path} is not valid JSON: ${(cause as Error).message}`, {
        hint: 'it should look like {"version": 2, "default_server": "https://handoff.example.com", "servers": {"https://handoff.example.com": {"token": "..."}}} (docs/storage.md)',
      });
    }
    const config = parseConfig(path, json);
    const warnings: string[] = [];
    const holdsToken = configHoldsToken(config);
    if (process.platform !== "win32" && ((holdsToken && info.mode & 0o077) || info.mode & 0o022)) {
      await handle.chmod(0o600);
      warnings.push(
        `${path} was ${info.mode & 0o022 ? "writable" : "readable"} by other users (mode ${octal(info.mode)}); changed it to 0600.` +
          (holdsToken ? " If others can log in to this machine, treat its tokens as exposed and ask for new ones." : ""),
      );
    }
    return { config, warnings };
  } finally {
    await handle.close();
  }
}

/** The shape is chosen by the `version` key, so an error names the keys of the shape meant. */
function parseConfig(path: string, json: unknown): ConfigFile {
  const versioned = typeof json === "object" && json !== null && !Array.isArray(json) && "version" in json;
  const schema = versioned ? localFileSchemas().ConfigFileV2Schema : localFileSchemas().LegacyConfigFileSchema;
  const parsed = checkLocalFile(schema, json);
  if (!parsed.success) throw configIssue(path, parsed.error.issues, Object.keys(schema.shape));
  return parsed.data;
}

function configHoldsToken(config: ConfigFile): boolean {
  if ("version" in config) return Object.values(config.servers).some((entry) => entry.token !== undefined || entry.team_token !== undefined);
  return config.token !== undefined || config.team_token !== undefined;
}

function configIssue(path: string, issues: z.core.$ZodIssue[], keys: string[]): HandoffError {
  const issue = issues[0]!;
  const allowed = keys.join(", ");
  const message =
    issue.code === "unrecognized_keys"
      ? `the config file ${path} has an unknown key '${issue.keys[0]}' (allowed: ${allowed})`
      : issue.path.length === 0
        ? `the config file ${path} must hold a JSON object with the keys ${allowed}`
        : `the config file ${path}: key '${issue.path.join(".")}' ${issue.message}`;
  return new HandoffError("invalid_document", message, { hint: `fix ${path} or remove it`, details: { path } });
}

/**
 * Writes the config file (0600, folder 0700) after validating it; returns its path.
 *
 * @example
 * ```ts
 * await writeConfig({ env: process.env, home: os.homedir() }, { server: "https://handoff.example.com" });
 * ```
 */
export async function writeConfig(location: ConfigLocation, config: ConfigFile): Promise<string> {
  const path = configFileFor(location);
  const value = parseConfig(path, config);
  if ("version" in value) {
    if (value.default_server !== undefined) value.default_server = normalizeOrThrow(value.default_server, `default_server for ${path}`, true);
    value.servers = Object.fromEntries(Object.entries(value.servers).map(([server, entry]) => [normalizeOrThrow(server, `the server '${server}' for ${path}`, true), entry]));
  } else if (value.server !== undefined) value.server = normalizeOrThrow(value.server, `server for ${path}`, true);
  // The config folder is ours to create; a folder HANDOFF_CONFIG names is the user's, left as it is.
  if (location.env[CONFIG_ENV] === undefined || location.env[CONFIG_ENV] === "") ensurePrivateDir(configDirFor(location), CONFIG_DIR);
  replaceFile(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}
