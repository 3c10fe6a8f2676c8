import { homedir } from "node:os";
import type { Env } from "../platform/env.js";
import { type BoundToken, type ConfigLocation, credentialsFor, type PublishConfig, type PublishFlags, resolvePublishConfig } from "./config.js";
import { type CallOptions, callOptionsFor } from "./call-options.js";

/**
 * Everything a run reads of its surroundings, built once by a front end (cli/, mcp/) and passed
 * down: where it runs, the environment, the home folder, the clock, and the publishing config and
 * credentials (read at most once per run). Library code reports warnings into it instead of
 * printing them; the front end prints them once, in order, after the run.
 */
export interface RunContext {
  readonly cwd: string;
  readonly env: Env;
  /** $HOME, else the OS's idea of it. */
  readonly home: string;
  /** The user id the store and private files are checked against (undefined where the OS has none). */
  readonly uid: number | undefined;
  now(): Date;
  /** Where the config file is: env and home. */
  readonly location: ConfigLocation;
  /** The publishing config for these flags, read once per run (its warnings stay in it). */
  publishConfig(flags: PublishFlags): Promise<PublishConfig>;
  /** The credentials bound to `server`, read once per server (its config warnings are reported here). */
  credentials(server: string): Promise<Credentials>;
  /** HTTP options from HANDOFF_HTTP_TIMEOUT_MS, checked when first asked for. */
  http(): CallOptions;
  /** Runs slow work; a terminal front end shows `message` once it takes longer than a second. */
  progress<T>(message: string, work: Promise<T>): Promise<T>;
  /** Reports a warning for the front end to print (a repeated one is kept once). */
  warn(message: string): void;
  /** The warnings reported so far, oldest first; the front end drains them. */
  takeWarnings(): string[];
}

export interface Credentials {
  token?: BoundToken;
  teamToken?: BoundToken;
  configPath: string;
}

export interface RunContextInput {
  cwd: string;
  env: Env;
  now?: () => Date;
  uid?: number | undefined;
  home?: string;
  progress?: <T>(message: string, work: Promise<T>) => Promise<T>;
}

export function createRunContext(input: RunContextInput): RunContext {
  const home = input.home ?? homeFrom(input.env);
  const location: ConfigLocation = { env: input.env, home };
  const credentials = new Map<string, Promise<Credentials>>();
  const configs = new Map<string, Promise<PublishConfig>>();
  const pending: string[] = [];
  const seen = new Set<string>();
  let http: CallOptions | undefined;
  const ctx: RunContext = {
    cwd: input.cwd,
    env: input.env,
    home,
    uid: input.uid ?? process.getuid?.(),
    now: input.now ?? (() => new Date()),
    location,
    publishConfig(flags) {
      const key = JSON.stringify([flags.server, flags.token, flags.teamToken]);
      let config = configs.get(key);
      if (!config) {
        // Its warnings travel in the config (publish and team return them in their results).
        config = resolvePublishConfig({ flags, ...location });
        configs.set(key, config);
      }
      return config;
    },
    credentials(server) {
      let found = credentials.get(server);
      if (!found) {
        found = credentialsFor(server, location).then(({ warnings, ...bound }) => {
          for (const warning of warnings) ctx.warn(warning);
          return bound;
        });
        credentials.set(server, found);
      }
      return found;
    },
    progress: input.progress ?? ((_message, work) => work),
    http() {
      http ??= callOptionsFor(input.env);
      return http;
    },
    warn(message) {
      if (seen.has(message)) return;
      seen.add(message);
      pending.push(message);
    },
    takeWarnings() {
      return pending.splice(0);
    },
  };
  return ctx;
}

/** $HOME as set (even empty: the config lookup then says HOME is unset), else the OS's answer. */
function homeFrom(env: Env): string {
  const home = env.HOME;
  return home === undefined ? homedir() : home;
}
