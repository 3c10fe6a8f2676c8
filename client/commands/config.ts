import { homedir } from "node:os";
import { join } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { implement } from "../command.js";
import { configDirFor, readConfigFile, writeConfig } from "../config.js";
import type { configSpec } from "../registry.js";

const KEYS = ["server", "token", "team_token"] as const;
type Key = (typeof KEYS)[number];
const SECRET: ReadonlySet<Key> = new Set(["token", "team_token"]);

export type ConfigResult =
  | { action: "path"; path: string }
  | { action: "get"; path: string; key: Key; set: boolean; value?: string }
  | { action: "set"; path: string; key: Key };

function keyOf(word: string | undefined): Key {
  if (word !== undefined && (KEYS as readonly string[]).includes(word)) return word as Key;
  throw new HandoffError("usage", word === undefined ? "which key? server, token or team_token" : `unknown config key '${word}'`, { hint: `keys: ${KEYS.join(", ")}` });
}

export const command = implement<typeof configSpec>()({
  async run({ positionals, io }): Promise<ConfigResult> {
    const location = { env: io.env, home: io.env.HOME ?? homedir() };
    const path = join(configDirFor(location), "config.json");
    const [action, word, value, ...extra] = positionals;
    if (action === "path" && positionals.length === 1) return { action, path };
    if (action === "get" && positionals.length === 2) {
      const key = keyOf(word);
      const current = (await readConfigFile(path))?.config[key];
      // A token's value is a secret: say whether it is set, never print it.
      return { action, path, key, set: current !== undefined, ...(current !== undefined && !SECRET.has(key) ? { value: current } : {}) };
    }
    if (action === "set" && positionals.length === 3 && extra.length === 0) {
      const key = keyOf(word);
      const existing = (await readConfigFile(path))?.config ?? {};
      await writeConfig(location, { ...existing, [key]: value! });
      return { action, path, key };
    }
    throw new HandoffError("usage", `handoff config takes: get KEY, set KEY VALUE, or path`, { hint: "run 'handoff config --help'" });
  },
  human(result) {
    if (result.action === "path") return { out: result.path };
    if (result.action === "set") return { err: `set ${result.key} in ${result.path}${SECRET.has(result.key) ? " (mode 0600)" : ""}` };
    if (!result.set) return { err: `${result.key} is not set in ${result.path}` };
    return result.value !== undefined ? { out: result.value } : { out: "(set; the value is a secret and is not printed)" };
  },
  outcome: (result) => (result.action === "get" && !result.set ? "nothing_found" : "ok"),
});
