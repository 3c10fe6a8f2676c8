import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../helpers/cli.js";
import { asReferenceEvents, referenceDivergence, referenceHere } from "../helpers/kernel-reference.js";
import { git, makeRepo } from "./git-repo.js";
import { type Sandbox, createHandoff, resume, resumeJson, sandbox } from "./resume-sandbox.js";

beforeAll(ensureBuilt);

const CE_BODY = "# Auth refactor\n\nObjective: finish token refresh.\n\n## Current state\n`src/auth/refresh.ts` compiles; retries are next.\n";

interface DriftItem {
  event: string;
  status: string;
  severity: string;
  message: string;
  path?: string;
  expected?: unknown;
  actual?: unknown;
  case?: string;
  fix?: string;
}

const events = (drift: DriftItem[]) => drift.map((d) => `${d.event}:${d.status}`);
const phaseStatus = (phases: { name: string; status: string }[]) => Object.fromEntries(phases.map((p) => [p.name, p.status]));

function commit(repo: string, file: string, content: string, message: string): string {
  writeFileSync(join(repo, file), content);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", message);
  return git(repo, "rev-parse", "HEAD");
}

/** A repository and a ce handoff created in it with the built CLI. */
async function ceSetup(): Promise<{ box: Sandbox; repo: string; path: string; head: string }> {
  const box = sandbox();
  const repo = makeRepo(join(box.base, "app"), { "README.md": "# App\n", "src/auth/refresh.ts": "export {};\n" });
  const path = await createHandoff(box, repo, CE_BODY, ["--title", "Auth refactor"]);
  return { box, repo, path, head: git(repo, "rev-parse", "HEAD") };
}

describe("drift of a ce handoff in a real git repository", () => {
  it("unchanged checkout: branch and commit match, exit 0", async () => {
    const { box, repo, path } = await ceSetup();
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_match:ok", "dirty_match:ok"]);
    expect(result.hard_divergence).toBe(false);
  });

  it("the capture-time dirty fact: a clean capture then an edit reports dirty_changed; a dirty capture records the diff's sha256", async () => {
    const { box, repo, path } = await ceSetup();
    expect(readFileSync(path, "utf8")).toMatch(/^dirty: false$/m);
    writeFileSync(join(repo, "README.md"), "# App, edited\n");
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    expect(result.drift.find((d: DriftItem) => d.event.startsWith("dirty_"))).toMatchObject({ event: "dirty_changed", severity: "warn", expected: false, actual: true });

    const dirty = await createHandoff(box, repo, CE_BODY, ["--title", "Dirty capture"]);
    const diff = execFileSync("git", ["diff", "--binary", "HEAD"], { cwd: repo });
    expect(readFileSync(dirty, "utf8")).toContain(`dirty: true\ndirty_tree_sha256: "${createHash("sha256").update(diff).digest("hex")}"`);
    const same = await resumeJson(box, [dirty], repo);
    expect(events(same.result.drift)).toEqual(["branch_match:ok", "commit_match:ok", "dirty_match:ok", "dirty_tree_hash_match:ok"]);
    writeFileSync(join(repo, "README.md"), "# App, edited again\n");
    expect(events((await resumeJson(box, [dirty], repo)).result.drift)).toContain("dirty_tree_hash_mismatch:drift");
  });

  it("HEAD behind the recorded commit (which this clone has): a warning with the fast-forward, exit 0", async () => {
    const { box, repo } = await ceSetup();
    const recorded = commit(repo, "work.txt", "done", "work");
    const path = await createHandoff(box, repo, CE_BODY, ["--title", "Behind"]);
    git(repo, "reset", "-q", "--hard", "HEAD~1");
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    const item = result.drift.find((d: DriftItem) => d.event === "commit_diverged");
    expect(item).toMatchObject({ severity: "warn", case: "behind", fix: `git merge --ff-only ${recorded.slice(0, 12)}` });
    expect(item?.message).toMatch(/^behind by 1 commit: /);
    expect(result.next_actions[0]).toBe(`fast-forward to the recorded commit first: git merge --ff-only ${recorded.slice(0, 12)}`);
    expect(result.hard_divergence).toBe(false);
  });

  it("HEAD advanced: commit_advanced with the number of commits, still resumable", async () => {
    const { box, repo, path, head } = await ceSetup();
    commit(repo, "a.txt", "1", "one");
    const now = commit(repo, "b.txt", "2", "two");
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_advanced:drift", "dirty_match:ok"]);
    expect(result.drift[1]).toMatchObject({ severity: "warn", expected: head, actual: now });
    expect(result.drift[1].message).toBe(`HEAD advanced by 2 commits since ${head.slice(0, 12)} (the recorded commit is an ancestor)`);
  });

  it("history rewritten (reset, new commit): commit_diverged is hard, exit 1", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"), { "README.md": "# App\n", "src/auth/refresh.ts": "export {};\n" });
    const base = git(repo, "rev-parse", "HEAD");
    const recorded = commit(repo, "work.txt", "first try", "first try");
    const path = await createHandoff(box, repo, CE_BODY);
    git(repo, "reset", "-q", "--hard", base);
    commit(repo, "work.txt", "second try", "second try");
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(1);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_diverged:drift", "dirty_match:ok"]);
    expect(result.drift[1]).toMatchObject({ severity: "hard", case: "diverged", expected: recorded });
    expect(result.drift[1].message).toMatch(/^diverged: /);
    expect(result.hard_divergence).toBe(true);
    expect(result.next_actions[0]).toMatch(/^reconcile the checkout/);
    const human = await resume(box, [path], repo);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("[hard] commit_diverged: ");
    expect(human.stdout).toContain("HARD DIVERGENCE: this checkout is not the state the handoff describes.");
  });

  it("another branch: branch_diverged, exit 0", async () => {
    const { box, repo, path } = await ceSetup();
    git(repo, "switch", "-q", "-c", "feature");
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    expect(result.drift[0]).toMatchObject({ event: "branch_diverged", status: "drift", expected: "main", actual: "feature" });
  });

  it("a path the body names was deleted: path_missing", async () => {
    const { box, repo, path } = await ceSetup();
    git(repo, "rm", "-q", "src/auth/refresh.ts");
    git(repo, "commit", "-q", "-m", "drop refresh");
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_advanced:drift", "dirty_match:ok", "path_missing:drift"]);
    expect(result.drift[3]).toMatchObject({ path: "src/auth/refresh.ts", severity: "warn" });
    expect(result.next_actions).toContain("check the paths the handoff names that no longer exist");
  });

  it("another repository's handoff: repo_root_mismatch is hard, exit 1", async () => {
    const { box, path } = await ceSetup();
    const other = makeRepo(join(box.base, "other"), { "OTHER.md": "# Other\n" });
    const { code, result } = await resumeJson(box, [path], other);
    expect(code).toBe(1);
    expect(result.drift[0]).toMatchObject({ event: "repo_root_mismatch", status: "drift", severity: "hard" });
    expect(result.drift[0].message).toMatch(/^this checkout is a different repository/);
    // Paths are only checked in the repository the handoff was about.
    expect(events(result.drift)).not.toContain("path_missing:drift");
  });
});

/** A partial kernel manifest: two inherited phases, each guarded by one rule on the pinned plan. */
const PARTIAL = {
  objective: { goal: "Ship the login fix", success_conditions: ["login test green"] },
  workflow: {
    phases: [
      { name: "recon", status: "inherited", evidence: "commit 1" },
      { name: "build", status: "inherited", evidence: "commit 2" },
      { name: "fix", status: "required" },
    ],
    invalidation_rules: [
      { when: { event: "artifact_hash_mismatch", path_glob: "docs/plan.md" }, invalidates: ["recon"] },
      { when: { event: "artifact_missing" }, invalidates: ["build"] },
    ],
  },
  execution: { entry_phase: "fix" },
};

async function kernelSetup(): Promise<{ box: Sandbox; repo: string; path: string }> {
  const box = sandbox();
  const repo = makeRepo(join(box.base, "app"), { "README.md": "# App\n", "docs/plan.md": "# Plan\n\n1. fix\n" });
  const path = await createHandoff(box, repo, JSON.stringify(PARTIAL), ["--format", "kernel", "--title", "Login fix", "--pin", "docs/plan.md"]);
  // Kernel's workflow commits the manifest it writes; then both sides agree the tree is clean.
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "docs: handoff manifest");
  return { box, repo, path };
}

/**
 * Resumes `path` with the built CLI and asks kernel's reference `divergence` about the same file
 * in the same checkout: the same events (names and severity), the same phases after the rules,
 * and exit 1 exactly when the reference calls it hard divergence. Where this machine has no
 * reference, only our result comes back (the test's own checks still run; the summary counts it).
 */
async function resumeWithParity(box: Sandbox, path: string, repo: string) {
  const ours = await resumeJson(box, [path], repo);
  if (!referenceHere()) return ours;
  const reference = referenceDivergence(path, repo);
  expect(asReferenceEvents(ours.result.drift)).toEqual(reference.events);
  expect(phaseStatus(ours.result.phases)).toEqual(phaseStatus(reference.phases));
  expect({ hard: ours.result.hard_divergence, code: ours.code }).toEqual({ hard: reference.hard_divergence, code: reference.exit === 0 ? 0 : 1 });
  return ours;
}

describe("drift of a kernel manifest (--pin) and its invalidation rules", () => {
  it("right after create, in the checkout it was written into: everything matches", async () => {
    const { box, repo, path } = await kernelSetup();
    const { code, result } = await resumeWithParity(box, path, repo);
    expect(code).toBe(0);
    // HEAD is one commit on: the manifest's own commit.
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_advanced:drift", "dirty_match:ok", "artifact_match:ok"]);
    expect(phaseStatus(result.phases)).toEqual({ recon: "inherited", build: "inherited", fix: "required" });
    expect(result.applied_rules).toEqual([]);
  });

  it("the pinned file edited: artifact_hash_mismatch invalidates the phase its rule names", async () => {
    const { box, repo, path } = await kernelSetup();
    writeFileSync(join(repo, "docs/plan.md"), "# Plan\n\n1. fix\n2. more\n");
    const { code, result } = await resumeWithParity(box, path, repo);
    expect(code).toBe(1);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_advanced:drift", "dirty_changed:drift", "artifact_hash_mismatch:drift"]);
    expect(result.drift[3]).toMatchObject({ severity: "hard" });
    expect(phaseStatus(result.phases)).toEqual({ recon: "invalidated", build: "inherited", fix: "required" });
    expect(result.applied_rules).toEqual([{ rule: 0, event: "artifact_hash_mismatch", path: "docs/plan.md", invalidated: ["recon"] }]);
    const human = await resume(box, [path], repo);
    expect(human.stdout).toContain("  rule 0 (artifact_hash_mismatch docs/plan.md) invalidated: recon");
    expect(human.stdout).toMatch(/ {2}invalidated recon \(commit 1\)/);
    // Defect 7: the orientation agrees with the phases: recon is unfinished, not inherited progress.
    expect(result.orientation.progress.join("\n")).not.toContain("recon (inherited)");
    expect(result.orientation.unfinished).toContain("recon (invalidated)");
  });

  it("the pinned file deleted: artifact_missing invalidates the other phase", async () => {
    const { box, repo, path } = await kernelSetup();
    rmSync(join(repo, "docs/plan.md"));
    const { code, result } = await resumeWithParity(box, path, repo);
    expect(code).toBe(1);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_advanced:drift", "dirty_changed:drift", "artifact_missing:drift"]);
    expect(phaseStatus(result.phases)).toEqual({ recon: "inherited", build: "invalidated", fix: "required" });
    expect(result.next_actions).toContain("redo or re-verify the invalidated phases: build");
  });

  it("dirty state changed: clean then edited", async () => {
    const { box, repo, path } = await kernelSetup();
    writeFileSync(join(repo, "README.md"), "# App, edited\n");
    const { result } = await resumeWithParity(box, path, repo);
    expect(result.drift).toContainEqual(expect.objectContaining({ event: "dirty_changed", status: "drift", expected: false, actual: true }));
  });

  it("on another branch, and detached: branch_diverged is hard, exit 1", async () => {
    const { box, repo, path } = await kernelSetup();
    git(repo, "switch", "-q", "-c", "feature");
    expect((await resumeWithParity(box, path, repo)).result.drift[0]).toMatchObject({ event: "branch_diverged", severity: "hard", actual: "feature" });
    git(repo, "switch", "-q", "--detach");
    expect((await resumeWithParity(box, path, repo)).result.drift[0]).toMatchObject({ event: "branch_diverged", severity: "hard", actual: "" });
  });

  it("a recorded commit this clone does not have: commit_diverged (not commit_unknown), hard, exit 1", async () => {
    const { box, repo, path } = await kernelSetup();
    const manifest = JSON.parse(readFileSync(path, "utf8"));
    manifest.provenance.commit = "0123456789abcdef0123456789abcdef01234567";
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
    git(repo, "commit", "-q", "-am", "point at a commit nobody has");
    const { result } = await resumeWithParity(box, path, repo);
    expect(result.drift[1]).toMatchObject({ event: "commit_diverged", severity: "hard" });
    expect(result.drift[1].message).toMatch(/not in this clone/);
  });

  it.each([
    ["left as they were", () => undefined, ["dirty_match:ok", "dirty_tree_hash_match:ok"]],
    ["edited further", (repo: string) => writeFileSync(join(repo, "README.md"), "# App, edited twice\n"), ["dirty_match:ok", "dirty_tree_hash_mismatch:drift"]],
    [
      "committed",
      (repo: string) => {
        git(repo, "add", "README.md");
        git(repo, "commit", "-q", "-m", "edit");
      },
      ["dirty_match:ok", "dirty_tree_hash_mismatch:drift"],
    ],
  ])("a checkpoint written with uncommitted changes, %s", async (_name, change, expected) => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"), { "README.md": "# App\n" });
    writeFileSync(join(repo, "README.md"), "# App, edited\n");
    const diff = execFileSync("git", ["diff", "--binary", "HEAD"], { cwd: repo });
    const path = join(repo, "_meta", "checkpoints", "cp.json");
    mkdirSync(join(repo, "_meta", "checkpoints"), { recursive: true });
    writeFileSync(
      path,
      JSON.stringify({
        schema: "kernel.checkpoint/v1",
        identity: { name: "cp", created: "2026-07-11T08:00:00Z" },
        provenance: { branch: "main", commit: git(repo, "rev-parse", "HEAD"), dirty: true, dirty_tree_sha256: createHash("sha256").update(diff).digest("hex") },
        task: { goal: "finish the edit" },
        steps_completed: [],
        pending_steps: ["commit it"],
        resume: { position: "editing", next_operation: "commit" },
      }),
    );
    change(repo);
    const { result } = await resumeWithParity(box, path, repo);
    expect(events(result.drift).filter((e) => e.startsWith("dirty"))).toEqual(expected);
  });
});

describe("drift of the real kernel example manifest", () => {
  const CONTRACT = "_meta/contracts/yaml-skill-unification-2026-07-10.md";

  function place(repo: string): string {
    const path = join(repo, "_meta", "handoffs", "example.json");
    mkdirSync(join(repo, "_meta", "handoffs"), { recursive: true });
    copyFileSync(join(repoRoot, "test", "fixtures", "kernel", "example.yaml-skill-unification-2026-07-10.json"), path);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "docs: handoff manifest");
    return path;
  }

  it("on another branch: branch_diverged invalidates recon, runtime, migration and state_skills", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "plugin"));
    const path = place(repo);
    const { code, result } = await resumeWithParity(box, path, repo);
    expect(code).toBe(1);
    expect(events(result.drift)).toEqual(["branch_diverged:drift", "commit_diverged:drift", "dirty_match:ok", "artifact_missing:drift", "artifact_missing:drift"]);
    expect(phaseStatus(result.phases)).toEqual({
      recon: "invalidated",
      runtime: "invalidated",
      migration: "invalidated",
      state_skills: "invalidated",
      docs_release: "required",
      chronicle: "required",
    });
  });

  it("on its branch with a different contract: artifact_hash_mismatch invalidates recon and migration", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "plugin"), { [CONTRACT]: "# Contract, not the pinned one\n" });
    git(repo, "switch", "-q", "-c", "feat/yaml-skill-unification");
    const path = place(repo);
    const { result } = await resumeWithParity(box, path, repo);
    expect(events(result.drift)).toEqual(["branch_match:ok", "commit_diverged:drift", "dirty_match:ok", "artifact_hash_mismatch:drift", "artifact_missing:drift"]);
    expect(result.drift[3]).toMatchObject({ path: CONTRACT });
    expect(phaseStatus(result.phases)).toEqual({ recon: "invalidated", runtime: "inherited", migration: "invalidated", state_skills: "inherited", docs_release: "required", chronicle: "required" });
  });
});

describe("resume is read-only", () => {
  it("git status and the index file are unchanged, even where git status would refresh the index", async () => {
    const { box, repo, path } = await kernelSetup();
    // Stat data that no longer matches the index: a plain `git status` rewrites the index here.
    const old = new Date("2020-01-01T00:00:00Z");
    utimesSync(join(repo, "README.md"), old, old);
    const index = join(repo, ".git", "index");
    const indexBefore = statSync(index).mtimeMs;
    const statusBefore = git(repo, "--no-optional-locks", "status", "--porcelain");
    expect(statSync(index).mtimeMs).toBe(indexBefore);

    for (const args of [[path], [path, "--json"], ["--json"], []]) {
      const run = await resume(box, args, repo);
      expect(run.code).not.toBeNull();
    }
    expect(statSync(index).mtimeMs).toBe(indexBefore);
    expect(git(repo, "--no-optional-locks", "status", "--porcelain")).toBe(statusBefore);
    // The control: this set-up does detect an index write.
    git(repo, "status", "--porcelain");
    expect(statSync(index).mtimeMs).not.toBe(indexBefore);
  });
});
