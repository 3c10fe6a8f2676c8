import { open } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type * as z from "zod";
import { type ConfigFile, ConfigFileSchema, TokenSchema } from "../shared/local-files.js";
import { HandoffError } from "../shared/errors.js";
import { normalizeServerUrl } from "../shared/share-url.js";
import { ensurePrivateDir, octal, writePrivateFile } from "./private-file.js";

// Publishing configuration, resolved once at the top of a command: flags > env > config file.
// A token is bound to the server configured next to it (see tokenFor), so `--server` pointing
// elsewhere never carries the config file's token there.

export const ENV = { server: "HANDOFF_SERVER", token: "HANDOFF_TOKEN", teamToken: "HANDOFF_TEAM_TOKEN" } as const;




export type ConfigSource = "flag" | "env" | "file" | "none";

export interface PublishFlags {
  server?: string | undefined;
  token?: string | undefined;
  teamToken?: string | undefined;
}

/** Where configuration is looked for: the process environment and home folder, passed in. */
export interface ConfigLocation {
  env: Record<string, string | undefined>;
  home: string;
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
  /** For stderr: a tightened file mode, a token not sent to a different server. */
  warnings: string[];
}

/** `$XDG_CONFIG_HOME/handoff`, or `~/.config/handoff`; a relative XDG_CONFIG_HOME is ignored, as the XDG spec says. */
export function configDirFor({ env, home }: ConfigLocation): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "handoff");
  if (home === "") throw new HandoffError("not_configured", "cannot find the config folder: neither HOME nor XDG_CONFIG_HOME is set");
  return join(home, ".config", "handoff");
}

/**
 * Resolves server and tokens: flags over environment over config file. The file is read only if
 * flags and environment leave something open. Throws `invalid_option` for a bad flag or
 * variable, `invalid_document` for a bad file, `unsafe_store` for a file another user owns.
 */
export async function resolvePublishConfig(input: { flags: PublishFlags } & ConfigLocation): Promise<PublishConfig> {
  const { flags, env } = input;
  const configDir = configDirFor(input);
  const configPath = join(configDir, "config.json");
  const given = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);
  const layers: Record<"flag" | "env", { server?: string | undefined; token?: string | undefined; teamToken?: string | undefined }> = {
    flag: { server: given(flags.server), token: given(flags.token), teamToken: given(flags.teamToken) },
    env: { server: given(env[ENV.server]), token: given(env[ENV.token]), teamToken: given(env[ENV.teamToken]) },
  };
  checkTokens(layers.flag, { token: "--token", teamToken: "--team-token" });
  checkTokens(layers.env, { token: ENV.token, teamToken: ENV.teamToken });
  const warnings: string[] = [];
  const needsFile = (["server", "token", "teamToken"] as const).some((k) => layers.flag[k] === undefined && layers.env[k] === undefined);
  const file = needsFile ? await readConfigFile(configPath) : undefined;
  if (file) warnings.push(...file.warnings);
  const fileLayer = { server: file?.config.server, token: file?.config.token, teamToken: file?.config.team_token };

  const serverPick = pick("server", { ...layers, file: fileLayer });
  const labels = { flag: "--server", env: ENV.server, file: `server in ${configPath}` } as const;
  const server = serverPick.source === "none" ? undefined : normalizeOrThrow(serverPick.value!, labels[serverPick.source], serverPick.source === "file");
  const all = { ...layers, file: fileLayer };
  const serverOf = (source: "flag" | "env" | "file") => {
    const raw = all[source].server;
    return raw === undefined ? undefined : normalizeServerUrl(raw, labels[source]);
  };
  const result: PublishConfig = { source: { server: serverPick.source, token: "none", teamToken: "none" }, configPath, configDir, warnings };
  if (server !== undefined) result.server = server;
  for (const key of ["token", "teamToken"] as const) {
    const chosen = pick(key, all);
    if (chosen.source === "none") continue;
    // A token configured next to one server is not sent to another one given with higher precedence.
    const home = serverOf(chosen.source);
    if (home !== undefined && server !== undefined && (!home.ok || home.value !== server)) {
      warnings.push(
        `not sending the ${key === "token" ? "publish token" : "team token"} from ${sourceName(chosen.source, configPath)} to ${server}: ` +
          `it is configured for ${home.ok ? home.value : "another server"}`,
      );
      continue;
    }
    result[key] = chosen.value!;
    result.source[key] = chosen.source;
  }
  return result;
}

function pick<K extends "server" | "token" | "teamToken">(
  key: K,
  layers: Record<"flag" | "env" | "file", { [P in K]?: string | undefined }>,
): { source: ConfigSource; value?: string } {
  for (const source of ["flag", "env", "file"] as const) {
    const value = layers[source][key];
    if (value !== undefined) return { source, value };
  }
  return { source: "none" };
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
    if (value !== undefined && !TokenSchema.safeParse(value).success) {
      // The value is a secret: name where it came from, never echo it.
      throw new HandoffError("invalid_option", `${labels[key]} ${TokenSchema.safeParse(value).error?.issues[0]?.message ?? "is malformed"}`, {
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
    handle = await open(path, "r");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new HandoffError("unreadable", `cannot read the config file ${path}: ${code ?? cause}`, { hint: "check its permissions", cause });
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
        hint: 'it should look like {"server": "https://handoff.example.com", "token": "..."}',
      });
    }
    const parsed = ConfigFileSchema.safeParse(json);
    if (!parsed.success) throw configIssue(path, parsed.error.issues);
    const warnings: string[] = [];
    const holdsToken = parsed.data.token !== undefined || parsed.data.team_token !== undefined;
    if (process.platform !== "win32" && ((holdsToken && info.mode & 0o077) || info.mode & 0o022)) {
      await handle.chmod(0o600);
      warnings.push(
        `${path} was ${info.mode & 0o022 ? "writable" : "readable"} by other users (mode ${octal(info.mode)}); changed it to 0600.` +
          (holdsToken ? " If others can log in to this machine, treat its tokens as exposed and ask for new ones." : ""),
      );
    }
    return { config: parsed.data, warnings };
  } finally {
    await handle.close();
  }
}

function configIssue(path: string, issues: z.core.$ZodIssue[]): HandoffError {
  const issue = issues[0]!;
  const allowed = Object.keys(ConfigFileSchema.shape).join(", ");
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
  const path = join(configDirFor(location), "config.json");
  const parsed = ConfigFileSchema.safeParse(config);
  if (!parsed.success) throw configIssue(path, parsed.error.issues);
  const value = { ...parsed.data };
  if (value.server !== undefined) value.server = normalizeOrThrow(value.server, `server for ${path}`, true);
  await ensurePrivateDir(configDirFor(location));
  await writePrivateFile(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}
