import { randomUUID } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { TOOLS } from "../../client/mcp/tools.js";
import { tempDir } from "../client/git-repo.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { type McpSession, type ToolCall, startMcp } from "../helpers/mcp-client.js";
import { type Host, makeHost, makeSharedRepo, startServer } from "./hosts.js";

// The real `handoff mcp` process, driven by the MCP SDK's own client over stdio, publishing to
// the real worker under `wrangler dev` on loopback.

const MARKER = `marker-${randomUUID()}`;
const BODY = `# Finish the retry path

## Objective
Make the uploader retry on 503 with exponential backoff (${MARKER}).

## Current state
src/retry.ts has the loop; the backoff has no test yet. The user chose exponential backoff.

## Next steps
- a backoff test in test/retry.test.ts is the plausible next step
`;

let base: string;
let server: LocalServer | undefined;
let host: Host;
let mcp: McpSession | undefined;

beforeAll(async () => {
  base = tempDir("handoff-e2e-mcp-");
  await ensureBuilt();
  server = await startServer(join(base, "server-state"));
  const repos = makeSharedRepo(base, ["a"], { "README.md": "# Uploader\n", "retry.ts": "export const tries = 3;\n" });
  host = makeHost(base, "a", repos.a!, { HANDOFF_SERVER: server.url });
  mcp = await startMcp({ cwd: host.repo, env: host.env, name: "handoff-e2e" });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
}, 30_000);

function call(name: string, args: Record<string, unknown>): Promise<ToolCall> {
  return mcp!.call(name, args);
}

function ok(result: ToolCall): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent!;
}

describe("handoff mcp over stdio with the SDK client", () => {
  let path: string;
  let url: string;

  it("lists the seven tools, each with an input schema", async () => {
    const { tools } = await mcp!.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["checkpoint", "context", "create", "discover", "orient", "publish", "validate"]);
    expect(TOOLS.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    expect(tools.find((t) => t.name === "discover")!.description).toMatch(/never selects/);
    // orient spends a view of a share link: not read-only, and the last view ends the link.
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(annotations.orient).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    for (const name of ["discover", "validate"]) expect(annotations[name]).toMatchObject({ readOnlyHint: true });
  });

  it("creates a handoff: the core's create result", async () => {
    const result = ok(await call("create", { body: BODY, focus: "backoff test", keywords: ["retry"], title: "Finish the retry path", summary: "Retry on 503 with backoff" }));
    path = result.path as string;
    expect(existsSync(path)).toBe(true);
    expect(path.startsWith(host.root)).toBe(true);
    expect(result.resume_command).toBe(`handoff resume '${path}'`);
    expect((result.metadata as Record<string, unknown>).resume_focus).toBe("backoff test");
  });

  it("discovers a shortlist and selects nothing", async () => {
    const raw = await call("discover", { keywords: ["retry"] });
    const result = ok(raw);
    expect(raw.content[0]!.text).toMatch(/derived from a handoff/);
    expect(result.selected).toBeNull();
    const candidates = result.candidates as { path: string; reasons: string[] }[];
    expect(candidates.map((c) => c.path)).toContain(path);
    // A shortlist never carries a body, and says that what it quotes comes from handoffs.
    expect(JSON.stringify(result)).not.toContain("src/retry.ts has the loop");
  });

  it("orients from the chosen file; the handoff's text comes back marked untrusted", async () => {
    const result = await call("orient", { source: path });
    const orientation = ok(result);
    expect(orientation.sufficient).toBe(true);
    expect(orientation.source).toBe(path);
    // The body is not in the result object; it comes whole, once, in its own marked block.
    expect(orientation.body).not.toContain(MARKER);
    expect(result.content[0]!.text).toMatch(/derived from a handoff/);
    expect(result.content[1]!._meta?.["handoff/untrusted-derived"]).toBe(true);
    const untrusted = result.content.find((block) => block._meta?.["handoff/untrusted"] === true);
    expect(untrusted?.text).toMatch(/^UNTRUSTED CONTENT/);
    expect(untrusted?.text).toContain("<untrusted-handoff");
    expect(untrusted?.text).toContain(BODY.trim());
  });

  it("validates it", async () => {
    const result = ok(await call("validate", { path }));
    expect(result).toMatchObject({ valid: true, format: "ce-handoff/v1", issues: [] });
  });

  it("publishes it to the local server and orients from the share URL", async () => {
    const published = ok(await call("publish", { path, max_views: 3, expires: "1h" }));
    url = published.url as string;
    expect(url.startsWith(`${server!.url}/h/`)).toBe(true);
    expect(url).toContain("#");
    expect(published.max_views).toBe(3);
    const result = await call("orient", { source: url });
    const orientation = ok(result);
    // The key never appears in the result object: the source is the URL without its fragment.
    expect(orientation.source).toBe(url.replace(/#.*$/, ""));
    expect(JSON.stringify(orientation)).not.toContain(url.slice(url.indexOf("#") + 1));
    // The read spent one of its three views.
    expect(orientation.views_left).toBe(2);
    const untrusted = result.content.find((block) => block._meta?.["handoff/untrusted"] === true);
    expect(untrusted?.text).toContain(MARKER);
  });

  it("writes a checkpoint; deactivate is not an MCP action (the user runs it)", async () => {
    const checkpoint = ok(await call("checkpoint", { goal: "Retry on 503", position: "loop written", next: "write the backoff test", done: [{ step: "loop", evidence: "commit abc: retry.ts" }] }));
    expect(checkpoint.path).toMatch(new RegExp(`^${host.repo}/_meta/checkpoints/.*\\.json$`));
    expect(checkpoint.format).toBe("kernel.checkpoint/v1");
    const deactivate = await call("context", { action: "deactivate", manifest: "m.json" });
    expect(deactivate.isError).toBe(true);
    const missing = await call("context", { action: "compile" });
    expect(missing.isError).toBe(true);
  });

  it("reports failures with Handoff's error codes", async () => {
    const missing = await call("orient", { source: join(host.repo, "nowhere", "gone.md") });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ error: { code: "unreadable" } });
    const folder = await call("orient", { source: host.repo });
    expect(folder.structuredContent).toMatchObject({ error: { code: "usage" } });
    const outside = await call("orient", { source: join(base, "server-state") });
    expect(outside.structuredContent).toMatchObject({ error: { code: "forbidden" } });
    const empty = await call("create", { body: "   \n" });
    expect(empty.isError).toBe(true);
    expect(empty.structuredContent).toMatchObject({ error: { code: "empty_input" } });
  });

  it("hints speak the tool's arguments, not the CLI's flags", async () => {
    const empty = (await call("create", { body: "   \n" })).structuredContent as { error: { hint: string } };
    expect(empty.error.hint).toContain("as body");
    const thin = (await call("create", { body: "just a note" })).structuredContent as { error: { code: string; hint: string } };
    expect(thin.error.code).toBe("insufficient");
    expect(thin.error.hint).toContain("allow_insufficient: true");
    const written = ok(await call("create", { body: "just a note", allow_insufficient: true }));
    expect((written.warnings as { code: string }[]).map((w) => w.code)).toContain("insufficient");
    const views = (await call("publish", { path, max_views: 100_000 })).structuredContent as { error: { message: string; hint: string } };
    // Rough edge 3: the hint names the bound that was missed, in the tool's words.
    expect(views.error.hint).toBe("pass at most max_views: 1000");
    expect(views.error.message).toBe("max_views must be a whole number from 1 to 1000, got '100000'");
    const none = (await call("publish", { path, max_views: 0 })).structuredContent as { error: { message: string; hint: string } };
    expect(none.error.hint).toBe("pass at least max_views: 1");
    for (const text of [empty.error.hint, thin.error.hint, views.error.hint, views.error.message, none.error.hint]) expect(text).not.toMatch(/--[a-z]/);
  });
});

describe("handoff mcp --root DIR --config FILE", () => {
  it("serves the store and config it names, and says at start which it uses, for clients that pass no environment", async () => {
    const root = join(base, "named-root");
    const config = join(base, "named-config.json");
    let stderr = "";
    // What such a client passes: PATH and HOME, nothing of Handoff's.
    const named = await startMcp({
      cwd: host.repo,
      env: { HOME: host.env.HOME },
      name: "handoff-e2e-named",
      args: ["--root", root, "--config", config],
      onStderr: (text) => {
        stderr += text;
      },
    });
    try {
      const created = (await named.call("create", { body: BODY })).structuredContent as { path: string };
      expect(created.path.startsWith(`${root}/`)).toBe(true);
      expect(stderr).toContain(`store ${root} (--root); config ${config} (--config, not there yet)`);
    } finally {
      await named.close();
    }
  });
});

describe("handoff mcp lifetime", () => {
  it("answers on stdout only and exits 0 when the client closes stdin", async () => {
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const run = await runCli(["mcp"], { cwd: host.repo, env: host.env, input: `${JSON.stringify(initialize)}\n` });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; result: { serverInfo: { name: string } } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.result.serverInfo.name).toBe("handoff");
  });
});
