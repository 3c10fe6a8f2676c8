import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGit } from "../../client/platform/git.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// The one git runner, on real repositories: what each kind of ending gives its callers.

const env = { PATH: process.env.PATH, ...GIT_ENV };

describe("runGit", () => {
  // One temp folder for the file: the repository and every folder a test adds live in it.
  const base = tempDir();
  const repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n", "big.txt": "x".repeat(100_000) });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("gives stdout as text, or as bytes when asked", async () => {
    const head = git(repo, "rev-parse", "HEAD");
    expect(await runGit(["rev-parse", "HEAD"], { cwd: repo, env })).toEqual({ code: 0, stdout: `${head}\n` });
    const blob = await runGit(["cat-file", "blob", "HEAD:README.md"], { cwd: repo, env, binary: true });
    expect(blob.code).toBe(0);
    expect(Buffer.isBuffer(blob.stdout)).toBe(true);
    expect(blob.stdout.toString("utf8")).toBe("# Demo\n");
  });

  it("a failure: git's exit code and the first line it wrote to stderr, no stdout", async () => {
    expect(await runGit(["rev-parse", "--verify", "--end-of-options", "refs/heads/nope"], { cwd: repo, env })).toEqual({ code: 128, stdout: "", failure: "fatal: Needed a single revision" });
  });

  it("output over the cap stops git and says so, with no partial output", async () => {
    const run = await runGit(["cat-file", "blob", "HEAD:big.txt"], { cwd: repo, env, maxBytes: 1000 });
    expect(run).toMatchObject({ stdout: "", failure: "output over the cap", overflow: true });
  });

  it("no git on PATH: 'git is not installed'", async () => {
    const empty = join(base, "empty-path");
    mkdirSync(empty);
    expect(await runGit(["status"], { cwd: repo, env: { ...env, PATH: empty } })).toEqual({ code: 128, stdout: "", failure: "git is not installed" });
  });

  it("git gets no stdin: a command that would read it ends at once with nothing read", async () => {
    // An open stdin pipe that nobody closes would hold this until the 30 s time limit.
    const run = await runGit(["hash-object", "--stdin"], { cwd: repo, env });
    expect(run).toEqual({ code: 0, stdout: `${git(repo, "hash-object", "-t", "blob", "/dev/null")}\n` });
  });

  it("runs nothing the repository's config names (the safe -c settings come first)", async () => {
    const marker = join(base, "fsmonitor-ran");
    const hook = join(repo, "fsmonitor.sh");
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    git(repo, "config", "core.fsmonitor", hook);
    const run = await runGit(["status", "--porcelain"], { cwd: repo, env });
    git(repo, "config", "--unset", "core.fsmonitor");
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
