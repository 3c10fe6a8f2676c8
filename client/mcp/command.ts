import { implement } from "../commands/command.js";
import type { Io } from "../platform/io.js";
import { VERSION } from "../lib/version.js";
import type { mcpSpec } from "./spec.js";

export interface McpResult {
  closed: true;
}

export const command = implement<typeof mcpSpec>()({
  async run({ io }): Promise<McpResult> {
    // stdout is the protocol channel: every message a tool prints goes to stderr instead.
    const quiet: Io = { ...io, out: io.err };
    const { serveStdio } = await import("./server.js");
    await serveStdio(quiet, VERSION);
    return { closed: true };
  },
  // The protocol owned stdout while the server ran: nothing more is printed after it closes.
  human: () => ({}),
  outcome: () => "ok",
});
