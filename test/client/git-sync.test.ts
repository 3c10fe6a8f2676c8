import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGit, runGitSync } from "../../client/platform/git.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// platform/git.ts's synchronous runner (node:child_process's spawnSync, loaded on the first git
// call): the same contract as the asynchronous one, on real repositories. No stdin, git's first
// stderr line as the failure, output and time caps, the safe config, and the same answer as
// runGit for the same call.

const base = tempDir();
const repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n", "big.txt": "x".repeat(100_000) });
const env = { PATH: process.env.PATH, ...GIT_ENV };
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("runGitSync", () => {
  it("gives stdout as text, and a failure as git's exit code and first stderr line, as runGit does", async () => {
    const head = git(repo, "rev-parse", "HEAD");
    expect(runGitSync(["rev-parse", "HEAD"], { cwd: repo, env })).toEqual({ code: 0, stdout: `${head}\n` });
    const missing = ["rev-parse", "--verify", "--end-of-options", "refs/heads/nope"];
    expect(runGitSync(missing, { cwd: repo, env })).toEqual({ code: 128, stdout: "", failure: "fatal: Needed a single revision" });
    for (const args of [["rev-parse", "HEAD"], missing, ["status", "--porcelain"], ["cat-file", "blob", "HEAD:README.md"]]) {
      expect(runGitSync(args, { cwd: repo, env })).toEqual(await runGit(args, { cwd: repo, env }));
    }
  });

  it("output over the cap stops git and says so, with no partial output", () => {
    expect(runGitSync(["cat-file", "blob", "HEAD:big.txt"], { cwd: repo, env, maxBytes: 1000 })).toEqual({ code: 128, stdout: "", failure: "output over the cap", overflow: true });
  });

  it("no git on PATH: 'git is not installed'", () => {
    expect(runGitSync(["status"], { cwd: repo, env: { PATH: join(base, "no-such-folder") } })).toEqual({ code: 128, stdout: "", failure: "git is not installed" });
  });

  it("git gets no stdin: a command that would read it ends at once with nothing read", () => {
    expect(runGitSync(["hash-object", "--stdin"], { cwd: repo, env })).toEqual({ code: 0, stdout: `${git(repo, "hash-object", "-t", "blob", "/dev/null")}\n` });
  });

  it("passes the environment it is given, with git's own settings on top", () => {
    // GIT_TRACE names the file git writes its trace to: a variable from `env` reached git.
    const trace = join(base, "trace.txt");
    expect(runGitSync(["rev-parse", "HEAD"], { cwd: repo, env: { ...env, GIT_TRACE: trace } }).code).toBe(0);
    expect(readFileSync(trace, "utf8")).toContain("rev-parse");
  });

  it("runs nothing the repository's config names (the safe -c settings come first)", () => {
    const ran = join(base, "fsmonitor-ran");
    const hook = join(base, "fsmonitor.sh");
    writeFileSync(hook, `#!/bin/sh\ntouch ${ran}\n`, { mode: 0o755 });
    git(repo, "config", "core.fsmonitor", hook);
    try {
      expect(runGitSync(["status", "--porcelain"], { cwd: repo, env }).code).toBe(0);
    } finally {
      git(repo, "config", "--unset", "core.fsmonitor");
    }
    expect(() => readFileSync(ran)).toThrow();
  });

  it("a NUL byte in an argument is spawnSync's own error", () => {
    expect(() => runGitSync(["a\0b"], { cwd: repo, env })).toThrow(/null bytes/);
  });
});
