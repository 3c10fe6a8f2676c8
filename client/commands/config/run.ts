import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { CONFIG_VERSION, type ConfigFile, type ConfigFileV2 } from "../../../shared/local/local-files.js";
import { normalizeServerUrl } from "../../../shared/api/share-url.js";
import { configFileFor, readConfigFile, writeConfig } from "../../lib/config.js";
import { type Io, readStdin } from "../../platform/io.js";
import type { configSpec } from "./spec.js";

const KEYS = ["server", "token", "team_token"] as const;
type Key = (typeof KEYS)[number];
const SECRET: ReadonlySet<Key> = new Set(["token", "team_token"]);

export type ConfigResult = { action: "path"; path: string } | { action: "get"; path: string; key: Key; set: boolean; value?: string } | { action: "set"; path: string; key: Key; warnings: string[] };

function keyOf(word: string | undefined): Key {
  if (word !== undefined && (KEYS as readonly string[]).includes(word)) return word as Key;
  throw new HandoffError("usage", word === undefined ? "which key? server, token or team_token" : `unknown config key '${word}'`, { hint: `keys: ${KEYS.join(", ")}` });
}

/**
 * The file as version 2 (each token bound to its server). A legacy file's tokens belong to its
 * `server`; without one they are bound to nothing, and are kept only while no server is set.
 */
function asV2(config: ConfigFile | undefined): ConfigFileV2 {
  if (config === undefined) return { version: CONFIG_VERSION, servers: {} };
  if ("version" in config) return { ...config, version: CONFIG_VERSION };
  const credentials = { ...(config.token ? { token: config.token } : {}), ...(config.team_token ? { team_token: config.team_token } : {}) };
  if (config.server === undefined) return { version: CONFIG_VERSION, servers: {} };
  return { version: CONFIG_VERSION, default_server: config.server, servers: { [config.server]: credentials } };
}

/** `server` is the default server; a token is the one bound to that server. */
function configValue(config: ConfigFile | undefined, key: Key): string | undefined {
  const v2 = asV2(config);
  if (key === "server") return v2.default_server;
  const entry = v2.default_server === undefined ? undefined : (v2.servers[normalized(v2.default_server)] ?? v2.servers[v2.default_server]);
  return entry?.[key];
}

function normalized(server: string): string {
  const result = normalizeServerUrl(server, "the server");
  return result.ok ? result.value : server;
}

/** A token is one line; more than this on stdin is not one. */
const TOKEN_STDIN_LIMIT = 8 * 1024;

/** `config set token -`: the value from stdin (one line; surrounding whitespace dropped), never from argv. */
async function secretFromStdin(key: Key, io: Io): Promise<string> {
  const hint = `pipe it in: printf '%s' "$TOKEN" | handoff config set ${key} -`;
  if (io.stdinIsTTY) throw new HandoffError("usage", `'config set ${key} -' reads the ${key} from stdin, and stdin is a terminal`, { hint });
  const bytes = await readStdin(io, TOKEN_STDIN_LIMIT);
  if (bytes === "too_large") throw new HandoffError("usage", `stdin holds more than ${TOKEN_STDIN_LIMIT} bytes, which is not one ${key}`, { hint });
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "" || /\s/.test(text)) throw new HandoffError("usage", text === "" ? `stdin was empty: no ${key} to store` : `stdin holds more than one word: a ${key} is one`, { hint });
  return text;
}

export const command = implement<typeof configSpec>()({
  async run({ positionals, io, ctx }): Promise<ConfigResult> {
    const location = { env: ctx.env, home: ctx.home };
    const path = configFileFor(location);
    const [action, word, value, ...extra] = positionals;
    if (action === "path" && positionals.length === 1) return { action, path };
    if (action === "get" && positionals.length === 2) {
      const key = keyOf(word);
      const current = configValue((await readConfigFile(path))?.config, key);
      // A token's value is a secret: say whether it is set, never print it.
      return { action, path, key, set: current !== undefined, ...(current !== undefined && !SECRET.has(key) ? { value: current } : {}) };
    }
    if (action === "set" && positionals.length === 3 && extra.length === 0) {
      const key = keyOf(word);
      const warnings: string[] = [];
      const v2 = asV2((await readConfigFile(path))?.config);
      if (key === "server") {
        const server = normalizeServerUrl(value!, "the server");
        if (!server.ok) throw server.error;
        v2.default_server = server.value;
        v2.servers[server.value] ??= {};
      } else {
        // A token is bound to one server: the default server it will be sent to.
        if (v2.default_server === undefined) {
          throw new HandoffError("usage", `a ${key} is bound to a server, and no server is set`, { hint: "run 'handoff config set server URL' first" });
        }
        const server = normalized(v2.default_server);
        v2.servers[server] = { ...v2.servers[server], [key]: value === "-" ? await secretFromStdin(key, io) : value! };
        // On argv the token is visible to every user of this machine (ps, /proc) and lands in shell history.
        if (value !== "-") warnings.push(`the ${key} was given on the command line, where ps and your shell history can see it; next time pipe it: printf '%s' "$TOKEN" | handoff config set ${key} -`);
      }
      await writeConfig(location, v2);
      return { action, path, key, warnings };
    }
    throw new HandoffError("usage", `handoff config takes: get KEY, set KEY VALUE, or path`, { hint: "run 'handoff config --help'" });
  },
  human(result) {
    if (result.action === "path") return { out: result.path };
    if (result.action === "set")
      return { err: [...result.warnings.map((w) => `handoff: warning: ${w}`), `set ${result.key} in ${result.path}${SECRET.has(result.key) ? " (mode 0600)" : ""}`].join("\n") };
    if (!result.set) return { err: `${result.key} is not set in ${result.path}` };
    return result.value !== undefined ? { out: result.value } : { out: "(set; the value is a secret and is not printed)" };
  },
  outcome: (result) => (result.action === "get" && !result.set ? "nothing_found" : "ok"),
});
