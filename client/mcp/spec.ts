import { defineCommand } from "../commands/command.js";

export const mcpSpec = defineCommand({
  name: "mcp",
  summary: "Serve Handoff's operations to an agent over MCP (stdio).",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Serve Handoff's operations to an agent over MCP (stdio): create, publish, discover (a shortlist
only, never a selection), orient (from an explicit source), validate, context and checkpoint.
Results are the same objects --json prints; a handoff's own text comes back marked untrusted;
errors carry Handoff's error codes. Runs in the current folder until the client closes stdin.
Claude Code: 'claude mcp add handoff -- handoff mcp', or install the plugin. Other clients:
see docs/agents.md.`,
  flags: {},
  exits: { 0: "the client closed the connection", 2: "usage" },
});
