import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { workTreeRoot } from "../../client/platform/work-tree.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// workTreeRoot finds the work tree by walking up for `.git` and asks git only where git's answer
// could differ: in every layout here its answer is git's own `rev-parse --show-toplevel`.

const base = tempDir("handoff-work-tree-");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...GIT_ENV };

const repo = makeRepo(join(base, "repo"));
mkdirSync(join(repo, "a", "b"), { recursive: true });
git(repo, "worktree", "add", "-q", join(base, "linked"));
makeRepo(join(base, "sub-source"));
git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", join(base, "sub-source"), "sm");
execFileSync("git", ["init", "-q", "--bare", join(base, "bare.git")], { env });
mkdirSync(join(base, "plain"));
symlinkSync(join(repo, "a"), join(base, "link-into-repo"));
// A folder holding a file named HEAD inside the work tree, and a `.git` file that names no repository.
mkdirSync(join(repo, "odd"));
writeFileSync(join(repo, "odd", "HEAD"), "not a ref\n");
const broken = join(base, "broken");
mkdirSync(broken);
writeFileSync(join(broken, ".git"), "gitdir: /nonexistent\n");
// core.worktree moves the work tree elsewhere.
const moved = makeRepo(join(base, "moved"));
mkdirSync(join(base, "moved-tree"));
git(moved, "config", "core.worktree", join(base, "moved-tree"));

/** What git itself answers, symlinks resolved, or undefined where it finds no work tree. */
function gitsAnswer(dir: string, extra: Record<string, string> = {}): string | undefined {
  const run = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd: dir, env: { ...env, ...extra }, encoding: "utf8" });
  return run.status === 0 ? realpathSync(run.stdout.trim()) : undefined;
}

describe("workTreeRoot", () => {
  it.each([
    ["the top of a repository", repo],
    ["a folder deep inside it", join(repo, "a", "b")],
    ["a linked worktree", join(base, "linked")],
    ["a submodule (its core.worktree: git is asked)", join(repo, "sm")],
    ["a bare repository", join(base, "bare.git")],
    ["inside .git", join(repo, ".git")],
    ["inside .git/objects", join(repo, ".git", "objects")],
    ["a folder outside any repository", join(base, "plain")],
    ["a symlink into a repository", join(base, "link-into-repo")],
    ["a folder holding a file named HEAD", join(repo, "odd")],
    ["a .git file naming no repository", broken],
    ["a repository whose core.worktree is elsewhere", moved],
    ["a folder that does not exist", join(base, "missing")],
  ])("%s: git's own answer", (_name, dir) => {
    expect(workTreeRoot(dir, env)).toBe(gitsAnswer(dir));
  });

  it("finds the repository by walking up", () => {
    expect(workTreeRoot(join(repo, "a", "b"), env)).toBe(repo);
    expect(workTreeRoot(join(base, "linked"), env)).toBe(join(base, "linked"));
  });

  it("an environment that changes git's discovery is git's to answer", () => {
    const extra = { GIT_DIR: join(repo, ".git"), GIT_WORK_TREE: join(base, "plain") };
    expect(workTreeRoot(join(base, "plain"), { ...env, ...extra })).toBe(join(base, "plain"));
    expect(workTreeRoot(join(base, "plain"), { ...env, ...extra })).toBe(gitsAnswer(join(base, "plain"), extra));
    const ceiling = { GIT_CEILING_DIRECTORIES: repo };
    expect(workTreeRoot(join(repo, "a"), { ...env, ...ceiling })).toBe(gitsAnswer(join(repo, "a"), ceiling));
  });
});
