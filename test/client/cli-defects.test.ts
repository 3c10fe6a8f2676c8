import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatOrientation } from "../../client/commands/resume/format.js";
import type { OrientationResult } from "../../client/ops/orient/orient.js";
import { deriveTitle } from "../../shared/ce/derive.js";
import { maxPlaintextFor, sealedSizeFor } from "../../shared/document/size-limits.js";
import { savePublished } from "../../client/lib/published-store.js";
import { sealHandoff } from "../../shared/crypto/envelope.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { userBoxes } from "../helpers/user-box.js";
import { git, makeRepo, tempDir } from "./git-repo.js";

// The numbered defects of issue 9 that cli-golden.test.ts does not cover, each through the
// built CLI where a user would meet it.

const base = tempDir("handoff-defects-");
beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const box = userBoxes(base);

const createJson = async (b: ReturnType<typeof box>, input: string, args: string[] = [], cwd = b.dir) => {
  const run = await runCli(["create", "--json", ...args], { cwd, env: b.env, input });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { path: string; metadata: Record<string, unknown>; warnings: { code: string; message: string }[] };
};

describe("issue 9 defects", () => {
  it("3: titles keep underscores and code; only emphasis markup goes", async () => {
    expect(deriveTitle("# Fix parse_config in __init__.py\n")).toBe("Fix parse_config in __init__.py");
    expect(deriveTitle("# **Auth** and `load_env`\n")).toBe("Auth and load_env");
    const result = await createJson(box(), "# parse_config and __init__.py\n\n## Current state\nBroken.\n");
    expect(result.metadata.title).toBe("parse_config and __init__.py");
  });

  it("4: a body with its own frontmatter gets one block, its title kept", async () => {
    const result = await createJson(box(), '---\ntitle: "Real title"\nkeywords: ["auth"]\n---\n# Heading\n\nState: half done.\n');
    expect(result.metadata.title).toBe("Real title");
    expect(result.metadata.keywords).toEqual(["auth"]);
    const text = readFileSync(result.path, "utf8");
    expect(text.match(/^---$/gm)).toHaveLength(2);
  });

  it("5: create refuses a body resume would call insufficient (exit 1, nothing written); --allow-insufficient writes it with a warning", async () => {
    const b = box();
    const refused = await runCli(["create", "--json"], { cwd: b.dir, env: b.env, input: "just a note\n" });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: "insufficient", details: { missing: ["current_state"] } });
    expect(existsSync(join(b.dir, "store"))).toBe(false);
    const thin = await createJson(b, "just a note\n", ["--allow-insufficient"]);
    expect(thin.warnings.map((w) => w.code)).toContain("insufficient");
    const full = await createJson(box(), "# Auth\n\n## Objective\nShip token refresh.\n\n## Current state\nRefresh works; retries do not.\n");
    expect(full.warnings.map((w) => w.code)).not.toContain("insufficient");
  });

  it("6: --format kernel refuses FOCUS and --keyword instead of dropping them, and an invalid manifest leaves no _meta/handoffs/", async () => {
    const b = box();
    const repo = makeRepo(join(b.dir, "repo"));
    const partial = JSON.stringify({
      objective: { goal: "Ship it", success_conditions: ["tests pass"] },
      workflow: { phases: [{ name: "docs", status: "required" }] },
      execution: { entry_phase: "docs" },
    });
    for (const args of [
      ["finish", "the", "docs"],
      ["--keyword", "docs"],
    ]) {
      const run = await runCli(["create", ...args, "--format", "kernel"], { cwd: repo, env: b.env, input: partial });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--format kernel has no place for");
    }
    expect(existsSync(join(repo, "_meta"))).toBe(false);
    const bad = await runCli(["create", "--format", "kernel"], { cwd: repo, env: b.env, input: JSON.stringify({ objective: { goal: 5 } }) });
    expect(bad.code).toBe(1);
    expect(existsSync(join(repo, "_meta"))).toBe(false);
  });

  it("12: a feature-branch handoff resumed from main names the branch and the exact git switch", async () => {
    const b = box();
    const repo = makeRepo(join(b.dir, "repo"));
    git(repo, "switch", "-q", "-c", "feature/login");
    writeFileSync(join(repo, "login.ts"), "export {};\n");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "login");
    const created = await createJson(b, "# Login\n\n## Objective\nFinish login.\n\n## Current state\nHalf done.\n", [], repo);
    git(repo, "switch", "-q", "main");
    const run = await runCli(["resume", created.path], { cwd: repo, env: b.env });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain("git switch feature/login");
    expect(run.stdout).not.toContain("HARD DIVERGENCE");
  });

  it("13: pinned artifacts and the contract appear in the text orientation too", () => {
    const result = {
      source: "m.json",
      format: "kernel.handoff/v1",
      metadata: {},
      sufficient: true,
      missing: [],
      drift: [],
      phases: [],
      applied_rules: [],
      hard_divergence: false,
      next_actions: [],
      body: "{}",
      orientation: { objective: "x", progress: [], decisions: [], current_state: "y", unfinished: [], verification: [], failed: [], warnings: [], references: ["docs/spec.md (contract)"] },
    } as unknown as OrientationResult;
    expect(formatOrientation(result)).toContain("docs/spec.md (contract)");
  });

  it("15: drift severity is coloured only when colour is allowed", () => {
    const result = {
      source: "h.md",
      format: "ce-handoff/v1",
      metadata: {},
      sufficient: true,
      missing: [],
      phases: [],
      applied_rules: [],
      hard_divergence: true,
      next_actions: [],
      body: "",
      drift: [{ event: "commit_diverged", status: "drift", severity: "hard", message: "m" }],
      orientation: { objective: "x", progress: [], decisions: [], current_state: "y", unfinished: [], verification: [], failed: [], warnings: [], references: [] },
    } as unknown as OrientationResult;
    expect(formatOrientation(result, true)).toContain("\u001b[31m[hard]");
    expect(formatOrientation(result, false)).not.toContain("\u001b[");
  });

  it("16: the sender's uncommitted changes are told to the receiver", async () => {
    const b = box();
    const repo = makeRepo(join(b.dir, "repo"));
    writeFileSync(join(repo, "wip.ts"), "x\n");
    const created = await createJson(b, "# WIP\n\nState: editing.\n", [], repo);
    expect(readFileSync(created.path, "utf8")).toContain("1 uncommitted change on branch main");
  });

  it("16: --max-candidates truncation is stated", async () => {
    const b = box();
    const folder = join(b.dir, "many");
    mkdirSync(folder);
    for (let i = 0; i < 3; i++) writeFileSync(join(folder, `h${i}.md`), `---\nartifact_contract: "ce-handoff/v1"\ntitle: "auth ${i}"\n---\nbody\n`);
    const run = await runCli(["resume", "--in", folder, "--max-candidates", "1", "auth"], { cwd: b.dir, env: b.env });
    expect(run.stderr).toContain("2 older files were not considered (--max-candidates 1");
  });

  it("14: published names exhausted and gone in its help, gives a reason for unknown, and --offline never calls a limited link active", async () => {
    const b = box();
    const help = await runCli(["published", "--help"], { cwd: b.dir, env: b.env });
    expect(help.stdout).toContain("exhausted");
    expect(help.stdout).toContain("gone");
    const configDir = join(b.dir, "config", "handoff");
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const record = { server: "http://127.0.0.1:9", owner_token: "hdo_x", expires_at: future, created_at: new Date().toISOString() };
    await savePublished(configDir, { ...record, id: "q3Jf0wS5b1mCq2o9X0aZ4w", max_views: 3, scope: "link" });
    await savePublished(configDir, { ...record, id: "a3Jf0wS5b1mCq2o9X0aZ4w", max_views: null, scope: "team" });
    const offline = JSON.parse((await runCli(["published", "--offline", "--json"], { cwd: b.dir, env: b.env })).stdout);
    const limited = offline.published.find((e: { id: string }) => e.id === "q3Jf0wS5b1mCq2o9X0aZ4w");
    expect(limited.state).toBe("unknown");
    expect(limited.state_reason).toContain("--offline");
    const online = JSON.parse((await runCli(["published", "--json"], { cwd: b.dir, env: b.env })).stdout);
    const team = online.published.find((e: { id: string }) => e.id === "a3Jf0wS5b1mCq2o9X0aZ4w");
    expect(team.state).toBe("unknown");
    // Asked with its owner token (no team token needed): the reason is the unreachable server.
    expect(team.state_reason).toMatch(/127\.0\.0\.1:9/);
  });

  it("size limits: the largest plaintext the client accepts still seals within the server's limit", async () => {
    const limit = 1_048_576;
    const max = maxPlaintextFor(limit);
    expect(sealedSizeFor(max)).toBeLessThanOrEqual(limit);
    expect(sealedSizeFor(max + 1)).toBeGreaterThan(limit);
    const { ciphertext } = await sealHandoff(new Uint8Array(max), { format: "text", file_name: "a.md", created_at: "2026-01-01T00:00:00.000Z" });
    expect(ciphertext.length).toBeLessThanOrEqual(limit);
    // The body that used to pass locally and meet a 413:
    expect(max).toBeLessThan(1_048_000);
  });
});
