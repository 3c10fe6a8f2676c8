import { EXIT, HandoffError } from "../../shared/errors.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";

export const help = `Usage: handoff mcp

Serve Handoff's operations to an agent over MCP (stdio): create, publish, discover (a shortlist
only, never a selection), orient (from an explicit source), validate, context and checkpoint.
Results are the same objects --json prints; a handoff's own text comes back marked untrusted;
errors carry Handoff's error codes. Runs in the current folder until the client closes stdin.

Claude Code: 'claude mcp add handoff -- handoff mcp', or install the plugin. Other clients:
see docs/agents.md.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const { positionals } = parseCommandArgs("mcp", args, {});
  if (positionals.length > 0) throw new HandoffError("usage", `handoff mcp takes no arguments, got '${positionals[0]}'`, { hint: "run 'handoff mcp' from the project folder" });
  // stdout is the protocol channel: every message a tool prints goes to stderr instead.
  const quiet: Io = { ...io, out: io.err };
  const [{ serveStdio }, { VERSION }] = await Promise.all([import("../mcp/server.js"), import("../cli.js")]);
  await serveStdio(quiet, VERSION);
  return EXIT.ok;
}
