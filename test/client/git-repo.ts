import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Real git repositories in temp folders, with fixed identities and dates so commit ids are stable. */

export const GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...GIT_ENV }, encoding: "utf8" }).trim();
}

/** A fresh temp folder, symlinks resolved (cwd reports real paths). */
export function tempDir(prefix = "handoff-test-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** `git init` in `dir` with `files` committed on branch main. */
export function makeRepo(dir: string, files: Record<string, string> = { "README.md": "# Demo\n" }): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return dir;
}

/**
 * Writes a minimal valid kernel.handoff/v1 at `<repo>/<file>` whose context has `mode`, forbids
 * `secrets/**` and requires `required` (repository paths), provenance at the repository's HEAD.
 */
export function writeSealedManifest(repo: string, file: string, options: { mode?: "sealed" | "bounded" | "advisory"; required?: string[] } = {}): string {
  const manifest = {
    schema: "kernel.handoff/v1",
    identity: { name: file.replace(/\.json$/, ""), created: "2026-07-10T21:45:00Z" },
    provenance: { branch: "main", commit: git(repo, "rev-parse", "HEAD"), dirty: false },
    objective: { goal: "Keep the experiment sealed", success_conditions: ["no forbidden reads"] },
    workflow: { phases: [{ name: "run", status: "required" }] },
    context: {
      policy: { mode: options.mode ?? "sealed" },
      ...(options.required ? { required: options.required.map((path) => ({ path, reason: "selected" })) } : {}),
      forbidden: ["secrets/**"],
      budget: { target_tokens: 1000, max_tokens: 2000 },
    },
    execution: { entry_phase: "run" },
    resume: { prompt: "resume" },
  };
  writeFileSync(join(repo, file), JSON.stringify(manifest));
  return file;
}
