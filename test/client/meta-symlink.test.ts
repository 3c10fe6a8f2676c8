import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { GIT_ENV, makeRepo, tempDir, writeSealedManifest } from "./git-repo.js";

// A `_meta/` that is a symlink out of the repository: kernel writes (create --format kernel,
// checkpoint) and `context --activate` refuse it and write nothing where it points.

const base = tempDir("handoff-meta-symlink-");
const repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n" });
const outside = join(base, "outside");
const env = { ...GIT_ENV, HOME: join(base, "home") };

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(outside);
  symlinkSync(outside, join(repo, "_meta"));
  writeSealedManifest(repo, "m.json");
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("a symlinked _meta/", () => {
  it.each([
    [
      "create --format kernel",
      ["create", "--format", "kernel", "--title", "t"],
      JSON.stringify({ objective: { goal: "g", success_conditions: ["s"] }, workflow: { phases: [{ name: "run", status: "required" }] }, execution: { entry_phase: "run" }, resume: { prompt: "p" } }),
    ],
    ["checkpoint", ["checkpoint", "--goal", "g", "--position", "p", "--next", "n"], ""],
    ["context --activate", ["context", "m.json", "--activate"], ""],
  ])("%s is refused and writes nothing outside", async (_name, args, input) => {
    const run = await runCli(args, { cwd: repo, env, input });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/_meta\S* resolves to \S*outside\S*, outside the repository/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a real _meta/ folder still works", async () => {
    rmSync(join(repo, "_meta"));
    const run = await runCli(["checkpoint", "--goal", "g", "--position", "p", "--next", "n"], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(repo, "_meta", "checkpoints"))).toBe(true);
  });
});
