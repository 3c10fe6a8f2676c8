import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { repoRoot } from "./cli.js";

// The real `handoff mcp` process (the built CLI), driven by the official MCP SDK's client over
// stdio: what every MCP test starts, and stops so that no server is left behind.

/** What a tool call answers, as the tests read it. */
export interface ToolCall {
  isError?: boolean;
  content: { type: string; text?: string; _meta?: Record<string, unknown> }[];
  structuredContent?: Record<string, unknown>;
}

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  call(name: string, args: Record<string, unknown>): Promise<ToolCall>;
  /** Closes the client (which ends the child); a child that ignored it is killed. */
  close(): Promise<void>;
}

/** Starts `handoff mcp` in `cwd` with `env` (over a bare PATH and NO_COLOR) and connects a client named `name`. */
export async function startMcp(options: { cwd: string; env: Record<string, string | undefined>; name: string; args?: string[]; onStderr?: (text: string) => void }): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repoRoot, "bin", "handoff.cjs"), "mcp", ...(options.args ?? [])],
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", ...definedOnly(options.env) },
    stderr: "pipe",
  });
  const onStderr = options.onStderr;
  if (onStderr) transport.stderr?.on("data", (chunk: Buffer) => onStderr(chunk.toString("utf8")));
  const client = new Client({ name: options.name, version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolCall,
    async close() {
      const pid = transport.pid;
      await client.close().catch(() => undefined);
      if (pid === null || pid === undefined) return;
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone: close() ended it.
      }
    },
  };
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
