import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { captureGit } from "../../client/lib/git.js";
import { createHandoff } from "../../client/ops/create/create.js";
import { createKernelHandoff } from "../../client/ops/create/kernel.js";
import { MAX_DOCUMENT_BYTES } from "../../shared/document/size-limits.js";
import { isHandoffError } from "../../shared/errors.js";
import { ensureBuilt } from "../helpers/cli.js";
import { startMcp } from "../helpers/mcp-client.js";
import { GIT_ENV, makeRepo, tempDir } from "./git-repo.js";

// Issue 35: MCP create wrote a 3 MiB handoff that resume and validate then refused. The create
// operation refuses what they would not read (MAX_DOCUMENT_BYTES), with the limit in the error,
// for every front end; nothing is written.

const base = tempDir("handoff-create-size-");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const repo = makeRepo(join(base, "repo"));
const env = (store: string) => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", ...GIT_ENV, HANDOFF_ROOT: store });
const deps = { now: () => new Date("2026-01-02T00:00:00Z"), captureGit };
const HEAD = "# Big\n\nObjective: carry a large body.\n\n## Current state\n\nHalf done.\n\n";

async function refusalOf(promise: Promise<unknown>) {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isHandoffError(caught)) throw new Error(`expected a HandoffError, got ${String(caught)}`);
  return caught;
}

describe("the create operation refuses a handoff resume and validate would not read", () => {
  it("a body over the limit, before git is asked anything", async () => {
    const store = join(base, "store-body");
    const error = await refusalOf(createHandoff({ body: HEAD + "x".repeat(MAX_DOCUMENT_BYTES), keywords: [], cwd: repo, env: env(store) }, deps));
    expect(error.reason).toBe("too_large");
    expect(error.message).toContain(`more than the ${MAX_DOCUMENT_BYTES} bytes (1 MiB) resume and validate read`);
    expect(error.details).toEqual({ bytes: HEAD.length + MAX_DOCUMENT_BYTES, limit: MAX_DOCUMENT_BYTES });
    expect(existsSync(store)).toBe(false);
  });

  it("a body that fits alone but not with its frontmatter", async () => {
    const store = join(base, "store-document");
    const body = HEAD + "y".repeat(MAX_DOCUMENT_BYTES - HEAD.length - 10);
    const error = await refusalOf(createHandoff({ body, keywords: [], cwd: repo, env: env(store) }, deps));
    expect(error.message).toMatch(/^the handoff is \d+ bytes, more than the 1048576 bytes \(1 MiB\) resume and validate read once its frontmatter is added; nothing was written$/);
    expect(readdirSync(store, { recursive: true }).filter((name) => String(name).endsWith(".md"))).toEqual([]);
  });

  it("a kernel manifest over the limit", async () => {
    const partial = JSON.stringify({ objective: { goal: "Carry a large manifest", success_conditions: ["z".repeat(MAX_DOCUMENT_BYTES)] } });
    const error = await refusalOf(createKernelHandoff({ partialText: partial, pins: [], cwd: repo, env: env(join(base, "store-kernel")) }, deps));
    expect(error.reason).toBe("too_large");
    expect(readdirSync(repo)).not.toContain("_meta");
  });

  it("a body just under the limit is written", async () => {
    const store = join(base, "store-fits");
    const created = await createHandoff({ body: HEAD + "ok ".repeat(300_000), keywords: [], cwd: repo, env: env(store) }, deps);
    expect(existsSync(created.result.path)).toBe(true);
  });
});

describe("MCP create (the official SDK client)", () => {
  it("refuses a 3 MiB body with the limit named, and writes nothing", async () => {
    await ensureBuilt();
    const store = join(base, "store-mcp");
    const mcp = await startMcp({ cwd: repo, env: { ...GIT_ENV, HOME: join(base, "home"), TMPDIR: base, HANDOFF_ROOT: store }, name: "handoff-create-size" });
    try {
      const result = await mcp.call("create", { body: HEAD + "z".repeat(3 * 1024 * 1024) });
      expect(result.isError).toBe(true);
      const { error } = result.structuredContent as { error: { code: string; message: string; details: { limit: number } } };
      expect(error.code).toBe("too_large");
      expect(error.message).toContain("1048576 bytes (1 MiB)");
      expect(error.details.limit).toBe(MAX_DOCUMENT_BYTES);
      expect(existsSync(store)).toBe(false);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
