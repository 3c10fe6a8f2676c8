import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot, runCli } from "../helpers/cli.js";
import { normalize } from "./cli-helpers.js";
import { tempDir } from "./git-repo.js";

beforeAll(ensureBuilt);

const fixtures = join(repoRoot, "test", "fixtures", "ce");

describe("handoff validate (golden)", () => {
  it.each([
    ["valid.md", 0],
    ["other-tool.md", 0],
    ["invalid.md", 1],
    ["no-frontmatter.md", 1],
    ["unparseable.md", 2],
    ["manifest.json", 1],
    ["missing.md", 2],
  ])("%s exits %i", async (file, code) => {
    const run = await runCli(["validate", file], { cwd: fixtures });
    expect(normalize(run, { [fixtures]: "<FIXTURES>" })).toMatchSnapshot();
    expect(run.code).toBe(code);
  });

  it("accepts the real kernel manifest written by another tool, and rejects a duplicate key", async () => {
    const kernel = join(repoRoot, "test", "fixtures", "kernel");
    const valid = await runCli(["validate", "example.yaml-skill-unification-2026-07-10.json"], { cwd: kernel });
    expect(valid.code).toBe(0);
    const dir = tempDir("validate-dup-");
    const text = (await import("node:fs")).readFileSync(join(kernel, "example.yaml-skill-unification-2026-07-10.json"), "utf8");
    writeFileSync(join(dir, "dup.json"), text.replace('"tier": 3', '"tier": 3, "tier": 2'));
    const dup = await runCli(["validate", "dup.json"], { cwd: dir });
    expect(dup.code).not.toBe(0);
    expect(dup.stdout + dup.stderr).toMatch(/duplicate/i);
  });

  it("--json prints the report", async () => {
    const run = await runCli(["validate", "invalid.md", "--json"], { cwd: fixtures });
    expect(JSON.parse(run.stdout)).toEqual({
      file: "invalid.md",
      format: "ce-handoff/v1",
      valid: false,
      issues: [
        { path: "frontmatter.artifact_contract", message: 'must be "ce-handoff/v1"' },
        { path: "frontmatter.created_at", message: "must be ISO-8601 UTC" },
        { path: "frontmatter.title", message: "must not be empty" },
        { path: "frontmatter.summary", message: "is required" },
        { path: "frontmatter.keywords[1]", message: "must be a string" },
        { path: "frontmatter.cwd", message: "must be an absolute path" },
        { path: "frontmatter.head", message: "must be a hex commit id" },
      ],
      warnings: [],
    });
  });

  it("a handoff that create wrote validates", async () => {
    const base = tempDir();
    const env = { HOME: base, HANDOFF_ROOT: join(base, "store") };
    const created = JSON.parse((await runCli(["create", "--json", "--title", 'Line\nbreak: "q" 🚀'], { cwd: base, env, input: "# x\n\n## Current state\nBody.\n" })).stdout);
    const run = await runCli(["validate", created.path], { cwd: base, env });
    expect(run.code).toBe(0);
  });

  it.each([
    ["a folder", (dir: string) => mkdirSync(join(dir, "x.md"))],
    ["a file that is not UTF-8", (dir: string) => writeFileSync(join(dir, "x.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]))],
  ])("exits 2 for %s", async (_name, plant) => {
    const dir = tempDir();
    plant(dir);
    const run = await runCli(["validate", "x.md"], { cwd: dir });
    expect(normalize(run, { [dir]: "<TMP>" })).toMatchSnapshot();
  });

  it("exits 2 with a usage error without FILE", async () => {
    const run = await runCli(["validate"], { cwd: fixtures });
    expect(run).toMatchSnapshot();
  });
});
