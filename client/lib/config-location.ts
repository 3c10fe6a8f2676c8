import { isAbsolute, join } from "node:path";
import { HandoffError } from "../../shared/errors.js";

/** Where configuration is looked for: the process environment and home folder, passed in. */
export interface ConfigLocation {
  env: Record<string, string | undefined>;
  home: string;
}

/** `$XDG_CONFIG_HOME/handoff`, or `~/.config/handoff`; a relative XDG_CONFIG_HOME is ignored, as the XDG spec says. */
export function configDirFor({ env, home }: ConfigLocation): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "handoff");
  if (home === "") throw new HandoffError("not_configured", "cannot find the config folder: neither HOME nor XDG_CONFIG_HOME is set");
  return join(home, ".config", "handoff");
}

/** The environment variable that names the config file itself (what `handoff mcp --config FILE` sets). */
export const CONFIG_ENV = "HANDOFF_CONFIG";

/**
 * The config file: HANDOFF_CONFIG when set (an absolute path), else `config.json` in
 * {@link configDirFor}. The published store stays in the config folder either way.
 */
export function configFileFor(location: ConfigLocation): string {
  const given = location.env[CONFIG_ENV];
  if (given !== undefined && given !== "") {
    if (!isAbsolute(given)) throw new HandoffError("usage", `${CONFIG_ENV} must be an absolute path, got '${given}'`, { hint: `set ${CONFIG_ENV} to the config file's full path` });
    return given;
  }
  return join(configDirFor(location), "config.json");
}

/**
 * How the config folder and its `published/` folder are made private (platform/fs.ts's
 * ensurePrivateDir): parents created, and a symlinked folder (dotfiles) checked where it leads.
 */
export const CONFIG_DIR = {
  parents: true,
  followSymlink: true,
  refuse: (message: string, cause?: unknown) => new HandoffError("unsafe_store", message, { hint: "use a config folder you own (XDG_CONFIG_HOME)", cause }),
};
