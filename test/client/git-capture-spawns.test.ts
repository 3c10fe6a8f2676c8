import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { captureGit, captureGitSync } from "../../client/lib/git.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// captureGit (what create records) asks git as little as a checkout allows (issue 26): where the
// checkout is comes from the git-free walk, and one config read serves the remotes and the filter
// overrides of `git status`. Counted with a logging `git` first on PATH that runs the real one;
// the facts must be the ones git's own rev-parse gives (GIT_CEILING_DIRECTORIES set, even empty,
// is an environment the walk leaves to git).

const base = tempDir();
afterAll(() => rmSync(base, { recursive: true, force: true }));

const log = join(base, "git-calls.log");
const shim = join(base, "shim");
mkdirSync(shim);
const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
writeFileSync(join(shim, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\nexec "${real}" "$@"\n`);
chmodSync(join(shim, "git"), 0o755);
const env = { PATH: `${shim}:${process.env.PATH ?? "/usr/bin:/bin"}`, ...GIT_ENV };
const viaGit = { ...env, GIT_CEILING_DIRECTORIES: "" };

/** The subcommands of the git processes `capture` started, in no particular order. */
async function subcommands<T>(capture: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  writeFileSync(log, "");
  const result = await capture();
  const calls = readFileSync(log, "utf8").split("\n").filter(Boolean);
  return { result, calls: calls.map((call) => call.split(" ").find((word, i, all) => !word.startsWith("-") && all[i - 1] !== "-c") ?? "").sort() };
}

describe("captureGit's git processes", () => {
  const repo = makeRepo(join(base, "Main Checkout"), { "README.md": "# Demo\n", "src/a.ts": "export {};\n" });
  git(repo, "remote", "add", "upstream", "https://example.invalid/acme/other.git");
  git(repo, "remote", "add", "origin", "https://user:SECRET@example.invalid/acme/Widget.git");
  git(repo, "config", "filter.lfs.clean", `sh -c 'touch ${join(base, "filter-ran")}'`);
  git(repo, "worktree", "add", "-q", "-b", "feature", join(base, "linked"));
  symlinkSync(repo, join(base, "through-a-link"));
  writeFileSync(join(repo, "README.md"), "changed\n");

  it.each([
    ["the top of a checkout", repo],
    ["a subfolder", join(repo, "src")],
    ["a linked worktree", join(base, "linked")],
    ["a path through a symlink", join(base, "through-a-link", "src")],
  ])("in %s: rev-list, config and status, and the facts git's own rev-parse gives", async (_, cwd) => {
    const walked = await subcommands(() => captureGit(cwd, env));
    expect(walked.calls).toEqual(["config", "rev-list", "status"]);
    const asked = await subcommands(() => captureGit(cwd, viaGit));
    expect(asked.calls).toEqual(["config", "rev-list", "rev-parse", "status"]);
    expect(walked.result).toEqual(asked.result);
    expect(walked.result).toMatchObject({ repository: "https://example.invalid/acme/Widget.git", repoName: "Widget" });
    // The command line's synchronous form: the same processes, the same facts.
    const sync = await subcommands(async () => captureGitSync(cwd, env));
    expect(sync).toEqual(walked);
    expect(await subcommands(async () => captureGitSync(cwd, viaGit))).toEqual(asked);
  });

  it.each([
    ["captureGit", captureGit],
    ["captureGitSync", captureGitSync],
  ])("%s still switches the repository's filter drivers off for status", async (_, capture) => {
    writeFileSync(log, "");
    expect((await capture(repo, env))?.dirty).toBe(1);
    const status = readFileSync(log, "utf8")
      .split("\n")
      .find((call) => call.includes(" status "));
    expect(status).toContain("filter.lfs.clean=");
    expect(() => readFileSync(join(base, "filter-ran"))).toThrow();
  });

  it("outside any repository: none at all", async () => {
    const outside = join(base, "not-a-repo");
    mkdirSync(outside);
    expect(await subcommands(() => captureGit(outside, env))).toEqual({ result: undefined, calls: [] });
    expect(await subcommands(async () => captureGitSync(outside, env))).toEqual({ result: undefined, calls: [] });
  });
});
