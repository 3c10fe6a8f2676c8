import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateKernelCheckpoint } from "../../shared/kernel/checkpoint.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { referenceHere, referenceValidate } from "../helpers/kernel-reference.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// `handoff checkpoint` writes kernel.checkpoint/v1 documents that our validator and kernel's
// reference validator both accept, clean and dirty.

const base = tempDir("handoff-checkpoint-");
const env: Record<string, string> = { ...GIT_ENV, HOME: join(base, "home"), TMPDIR: base };
let repo: string;

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(join(base, "home"));
  repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n", "src/a.ts": "export const a = 1;\n" });
  mkdirSync(join(repo, "_meta", "handoffs"), { recursive: true });
  const parent = {
    schema: "kernel.handoff/v1",
    identity: { name: "auth-rewrite", created: "2026-07-10T21:45:00Z" },
    provenance: { branch: "main", commit: git(repo, "rev-parse", "HEAD"), dirty: false },
    objective: { goal: "Rewrite the auth middleware", success_conditions: ["tests pass"] },
    workflow: {
      phases: [
        { name: "recon", status: "inherited", evidence: "notes in docs/auth.md" },
        { name: "implement", status: "required" },
        { name: "verify", status: "required" },
      ],
    },
    context: { policy: { mode: "sealed" }, required: [{ path: "src/a.ts", reason: "the middleware" }], optional: [{ path: "README.md" }], forbidden: ["secrets/**"], budget: { max_tokens: 4000 } },
    execution: { entry_phase: "implement", entrypoint: "open src/a.ts" },
    resume: { prompt: "resume from _meta/handoffs/auth.json" },
  };
  writeFileSync(join(repo, "_meta", "handoffs", "auth.json"), `${JSON.stringify(parent, null, 2)}\n`);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "handoff");
}, 120_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

function referenceVerdict(file: string) {
  return referenceValidate([file], repo)[0]!;
}

interface CheckpointJson {
  path: string;
  format: string;
  checkpoint: Record<string, unknown> & {
    provenance: Record<string, unknown>;
    steps_completed: { step: string; evidence: string }[];
    pending_steps: string[];
    context?: Record<string, unknown>;
    task: Record<string, unknown>;
  };
  warnings: string[];
}

async function checkpoint(args: string[]): Promise<CheckpointJson> {
  const run = await runCli(["checkpoint", "--json", ...args], { cwd: repo, env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as CheckpointJson;
}

describe("handoff checkpoint", () => {
  it("on a clean tree: the parent's phases and context carry over; both validators accept it", async () => {
    const result = await checkpoint([
      "--from",
      "_meta/handoffs/auth.json",
      "--done",
      "implement=npm test: 12 passed (commit abc123)",
      "--position",
      "middleware rewritten, verify not started",
      "--next",
      "npm run e2e",
    ]);
    expect(result.path).toBe(join(repo, "_meta", "checkpoints", `auth-rewrite-${new Date().toISOString().slice(0, 10)}.json`));
    const { checkpoint: doc } = result;
    expect(doc.schema).toBe("kernel.checkpoint/v1");
    expect(doc.provenance).toEqual({ branch: "main", commit: git(repo, "rev-parse", "HEAD"), dirty: false });
    expect(doc.task).toEqual({ goal: "Rewrite the auth middleware", handoff_ref: "_meta/handoffs/auth.json" });
    expect(doc.steps_completed).toEqual([
      { step: "recon", evidence: "notes in docs/auth.md" },
      { step: "implement", evidence: "npm test: 12 passed (commit abc123)" },
    ]);
    expect(doc.pending_steps).toEqual(["verify"]);
    // The checkpoint's context has no `optional` list: only the keys its schema names.
    expect(doc.context).toEqual({ policy: { mode: "sealed" }, required: [{ path: "src/a.ts", reason: "the middleware" }], forbidden: ["secrets/**"], budget: { max_tokens: 4000 } });
    expect(validateKernelCheckpoint(JSON.parse(readFileSync(result.path, "utf8"))).ok).toBe(true);
    const ours = await runCli(["validate", result.path, "--json"], { cwd: repo, env });
    expect(ours.code, ours.stdout + ours.stderr).toBe(0);
    expect(JSON.parse(ours.stdout)).toMatchObject({ valid: true, format: "kernel.checkpoint/v1", issues: [] });
    if (!referenceHere()) return;
    const reference = referenceVerdict(result.path);
    expect(reference.exit, reference.output).toBe(0);
    expect(reference.output).toContain("(kernel.checkpoint/v1)");
  });

  it("on a dirty tree: dirty_tree_sha256 is the sha256 of git diff --binary HEAD; both validators accept it", async () => {
    writeFileSync(join(repo, "src", "a.ts"), "export const a = 2;\n");
    const diff = execFileSync("git", ["diff", "--binary", "HEAD"], { cwd: repo, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
    const result = await checkpoint(["--goal", "Rewrite the auth middleware", "--pending", "verify", "--output", "src/a.ts", "--position", "a.ts edited, uncommitted", "--next", "git diff"]);
    expect(result.checkpoint.provenance).toMatchObject({ dirty: true, dirty_tree_sha256: createHash("sha256").update(diff).digest("hex") });
    expect(result.checkpoint.current_outputs).toEqual(["src/a.ts"]);
    expect(result.warnings.join("\n")).toMatch(/uncommitted change/);
    expect((await runCli(["validate", result.path], { cwd: repo, env })).code).toBe(0);
    if (referenceHere()) {
      const reference = referenceVerdict(result.path);
      expect(reference.exit, reference.output).toBe(0);
    }
    git(repo, "checkout", "--", "src/a.ts");
  });

  it("never overwrites: a second checkpoint the same day gets the next free name", async () => {
    const first = await checkpoint(["--goal", "g", "--name", "twice", "--position", "p", "--next", "n"]);
    const second = await checkpoint(["--goal", "g", "--name", "twice", "--position", "p", "--next", "n"]);
    expect(second.path).not.toBe(first.path);
    expect(second.path).toMatch(/twice-\d{4}-\d\d-\d\d-2\.json$/);
  });

  it("refuses what would not be a checkpoint: no position, no goal, evidence-free steps", async () => {
    const noPosition = await runCli(["checkpoint", "--goal", "g", "--next", "n"], { cwd: repo, env });
    expect(noPosition.code).toBe(2);
    expect(noPosition.stderr).toMatch(/needs --position/);
    const noGoal = await runCli(["checkpoint", "--position", "p", "--next", "n"], { cwd: repo, env });
    expect(noGoal.code).toBe(2);
    expect(noGoal.stderr).toMatch(/goal/);
    const noEvidence = await runCli(["checkpoint", "--goal", "g", "--done", "tests", "--position", "p", "--next", "n"], { cwd: repo, env });
    expect(noEvidence.code).toBe(2);
    expect(noEvidence.stderr).toMatch(/STEP=EVIDENCE/);
  });
});
