import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { implement } from "../commands/command.js";
import { CONFIG_ENV, configFileFor } from "../lib/config-location.js";
import { managedRoots } from "../lib/store.js";
import { VERSION } from "../lib/version.js";
import type { Env } from "../platform/env.js";
import type { Io } from "../platform/io.js";
import type { mcpSpec } from "./spec.js";

export interface McpResult {
  closed: true;
}

export const command = implement<typeof mcpSpec>()({
  async run({ flags, io, ctx }): Promise<McpResult> {
    // Flags over the environment: some clients start servers without passing it through.
    const env = { ...io.env };
    if (flags.root !== undefined) env.HANDOFF_ROOT = resolve(io.cwd, flags.root);
    if (flags.config !== undefined) env[CONFIG_ENV] = resolve(io.cwd, flags.config);
    // stdout is the protocol channel: every message a tool prints goes to stderr instead.
    const quiet: Io = { ...io, env, out: io.err };
    io.err(startLine(env, ctx.home, flags));
    const { serveStdio } = await import("./server.js");
    await serveStdio(quiet, VERSION);
    return { closed: true };
  },
  // The protocol owned stdout while the server ran: nothing more is printed after it closes.
  human: () => ({}),
  outcome: () => "ok",
});

/** Which store and config this server uses, and where each choice came from. */
function startLine(env: Env, home: string, flags: { root?: string | undefined; config?: string | undefined }): string {
  const store = managedRoots(env).join(", then ");
  const storeFrom = flags.root !== undefined ? "--root" : env.HANDOFF_ROOT ? "HANDOFF_ROOT" : "default";
  let config: string;
  try {
    const path = configFileFor({ env, home });
    const from = flags.config !== undefined ? "--config" : env[CONFIG_ENV] ? CONFIG_ENV : env.XDG_CONFIG_HOME ? "XDG_CONFIG_HOME" : "default";
    config = `${path} (${from}${existsSync(path) ? "" : ", not there yet"})`;
  } catch (error) {
    config = `none (${error instanceof Error ? error.message : String(error)})`;
  }
  return `handoff mcp ${VERSION}: store ${store} (${storeFrom}); config ${config}`;
}
