import { execFileSync } from "node:child_process";
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureGit, parseStatus } from "../../client/lib/git.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

const env = { PATH: process.env.PATH, ...GIT_ENV };

describe("captureGit on real repositories", () => {
  it("returns undefined outside git", async () => {
    expect(await captureGit(tempDir(), env)).toBeUndefined();
  });

  it("records a clean checkout", async () => {
    const repo = makeRepo(join(tempDir(), "My Project"));
    const head = git(repo, "rev-parse", "HEAD");
    expect(await captureGit(repo, env)).toEqual({
      toplevel: repo,
      branch: "main",
      head,
      detached: false,
      dirty: 0,
      repo_root_sha: head,
      repository: "my-project",
      repoName: "My Project",
      namespace: `my-project-${head.slice(0, 12)}`,
    });
  });

  it("keeps the namespace when an unrelated, older history is merged in (first-parent root)", async () => {
    const repo = makeRepo(join(tempDir(), "app"));
    const root = git(repo, "rev-parse", "HEAD");
    const before = await captureGit(repo, env);
    // An older, unrelated history: its root sorts last in a plain rev-list --max-parents=0.
    const old = { ...process.env, ...GIT_ENV, GIT_AUTHOR_DATE: "2001-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2001-01-01T00:00:00Z" };
    execFileSync("git", ["switch", "-q", "--orphan", "vendor"], { cwd: repo, env: old });
    writeFileSync(join(repo, "VENDOR.md"), "vendored\n");
    execFileSync("git", ["add", "VENDOR.md"], { cwd: repo, env: old });
    execFileSync("git", ["commit", "-qm", "vendor root"], { cwd: repo, env: old });
    git(repo, "switch", "-q", "main");
    git(repo, "merge", "-q", "--allow-unrelated-histories", "-m", "merge vendor", "vendor");
    expect(git(repo, "rev-list", "--max-parents=0", "HEAD").split("\n")).toHaveLength(2);
    const after = await captureGit(repo, env);
    expect(after?.repo_root_sha).toBe(root);
    expect(after?.namespace).toBe(before?.namespace);
  });

  it("strips credentials from the remote and names the namespace after it", async () => {
    const repo = makeRepo(join(tempDir(), "checkout"));
    git(repo, "remote", "add", "origin", "https://user:ghp_SECRET@example.invalid/acme/Widget.git?token=SECRET2");
    const capture = await captureGit(repo, env);
    expect(capture?.repository).toBe("https://example.invalid/acme/Widget.git");
    expect(capture?.namespace).toMatch(/^widget-[0-9a-f]{12}$/);
    expect(JSON.stringify(capture)).not.toContain("SECRET");
  });

  it("sees a detached HEAD", async () => {
    const repo = makeRepo(join(tempDir(), "r"));
    git(repo, "checkout", "-q", "--detach");
    const capture = await captureGit(repo, env);
    expect(capture).toMatchObject({ detached: true, head: git(repo, "rev-parse", "HEAD") });
    expect(capture?.branch).toBeUndefined();
  });

  it("gives a linked worktree the main checkout's namespace and its own worktree_path", async () => {
    const base = tempDir();
    const repo = makeRepo(join(base, "main-checkout"));
    git(repo, "worktree", "add", "-q", "-b", "feature", join(base, "feature-wt"));
    const main = await captureGit(repo, env);
    const linked = await captureGit(join(base, "feature-wt"), env);
    expect(linked?.namespace).toBe(main?.namespace);
    expect(linked?.repository).toBe(main?.repository);
    expect(linked).toMatchObject({ branch: "feature", worktree_path: join(base, "feature-wt"), toplevel: join(base, "feature-wt") });
    expect(main?.worktree_path).toBeUndefined();
  });

  it("counts dirty entries and unpushed commits", async () => {
    const base = tempDir();
    git(base, "init", "-q", "--bare", "-b", "main", "remote.git");
    const repo = makeRepo(join(base, "work"));
    git(repo, "remote", "add", "origin", join(base, "remote.git"));
    git(repo, "push", "-q", "-u", "origin", "main");
    writeFileSync(join(repo, "a.txt"), "a");
    git(repo, "add", "a.txt");
    git(repo, "commit", "-q", "-m", "second");
    writeFileSync(join(repo, "untracked.txt"), "u");
    writeFileSync(join(repo, "README.md"), "changed");
    expect(await captureGit(repo, env)).toMatchObject({ upstream: "origin/main", ahead: 1, behind: 0, dirty: 2, repository: join(base, "remote.git") });
  });

  it("handles a repository without commits", async () => {
    const repo = join(tempDir(), "empty");
    git(tempDir(), "init", "-q", "-b", "main", repo);
    const capture = await captureGit(repo, env);
    expect(capture).toMatchObject({ branch: "main", namespace: "general", repository: basename(repo) });
    expect(capture?.head).toBeUndefined();
  });

  it("does not rewrite the index (no optional locks)", async () => {
    const repo = makeRepo(join(tempDir(), "r"));
    // A touched file makes the index stale: a plain `git status` would refresh and rewrite it.
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(repo, "README.md"), future, future);
    const before = readFileSync(join(repo, ".git", "index"));
    await captureGit(repo, env);
    expect(readFileSync(join(repo, ".git", "index")).equals(before)).toBe(true);
  });
});

describe("parseStatus", () => {
  it.each([
    ["# branch.oid (initial)\n# branch.head main\n", { detached: false, dirty: 0, branch: "main" }],
    ["# branch.oid abc\n# branch.head (detached)\n1 .M N... 100644 100644 100644 a b f\n? new\n", { detached: true, dirty: 2, head: "abc" }],
    [
      "# branch.oid abc\n# branch.head my branch\n# branch.upstream origin/x\n# branch.ab +3 -1\n",
      { detached: false, dirty: 0, head: "abc", branch: "my branch", upstream: "origin/x", ahead: 3, behind: 1 },
    ],
  ])("%j", (output, expected) => {
    expect(parseStatus(output)).toEqual(expected);
  });
});
