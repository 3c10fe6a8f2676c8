import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../client/cli/main.js";
import type { Io } from "../../client/platform/io.js";
import { partialRealpath, repoRelative } from "../../client/platform/paths.js";
import { repoRoot } from "../helpers/cli.js";
import { makeRepo, tempDir } from "./git-repo.js";

// One rule for "is this path inside the repository" (client/platform/paths.ts, the rule of
// shared/kernel/checks.ts checkRepoPath): only a '..' segment leaves; '..foo' and '...' are names.

const base = realpathSync(tempDir("handoff-repo-paths-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const repo = makeRepo(join(base, "repo"));
const outside = join(base, "outside");
mkdirSync(outside);
writeFileSync(join(outside, "secret.txt"), "secret\n");
writeFileSync(join(repo, "inside.md"), "# Inside\n");
symlinkSync(join(outside, "secret.txt"), join(repo, "out-link"));
symlinkSync(join(repo, "inside.md"), join(repo, "in-link"));

const example = JSON.parse(readFileSync(join(repoRoot, "test/fixtures/kernel/example.yaml-skill-unification-2026-07-10.json"), "utf8")) as { context: { required: { path: string }[] } };

async function validate(path: string): Promise<{ valid: boolean; issues: { path: string; message: string }[] }> {
  const manifest = structuredClone(example);
  manifest.context.required[0]!.path = path;
  const file = join(base, `m-${Buffer.from(path).toString("hex")}.json`);
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  const out: string[] = [];
  const io: Io = { out: (t) => void out.push(t), err: () => undefined, progress: (_m, w) => w, stdin: Readable.from([]), stdinIsTTY: false, env: { PATH: process.env.PATH }, cwd: repo, color: false };
  await main(["validate", file, "--json"], io);
  return JSON.parse(out.join(""));
}

const CASES: [string, boolean][] = [
  ["..", false],
  ["..foo", true],
  ["...", true],
  ["a/../..", false],
  ["a\\..\\b", true],
  ["out-link", false],
  ["in-link", true],
];

describe("repository paths", () => {
  it.each(CASES)("%j: inside is %s for validate and for repoRelative alike", async (path, inside) => {
    expect(repoRelative(repo, partialRealpath(join(repo, path))) !== undefined).toBe(inside);
    const report = await validate(path);
    const about = report.issues.filter((issue) => issue.path.startsWith("context.required[0].path"));
    expect(about.length === 0).toBe(inside);
  });

  it("accepts ..foo and ... as a selector path (no such symlink)", async () => {
    for (const name of ["..foo", "..."]) expect((await validate(name)).issues.filter((i) => /outside|climbs/.test(i.message))).toEqual([]);
  });
});
