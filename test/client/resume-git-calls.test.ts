import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fullManifest } from "../helpers/kernel-corpus.js";
import { ensureBuilt } from "../helpers/cli.js";
import { makeRepo } from "./git-repo.js";
import { createHandoff, resumeJson, type Sandbox, sandbox } from "./resume-sandbox.js";

// Discovery asks git only as far as it needs (issue 26): an empty store needs at most the
// toplevel (to list the repository's kernel folders); anything to rank needs the whole identity.
// Counted with a logging `git` first on PATH that runs the real one.

beforeAll(ensureBuilt);

function countingGit(box: Sandbox): { env: Record<string, string>; calls: () => string[] } {
  const shim = join(box.base, "shim");
  const log = join(box.base, "git-calls.log");
  mkdirSync(shim);
  writeFileSync(log, "");
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFileSync(join(shim, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\nexec "${real}" "$@"\n`);
  chmodSync(join(shim, "git"), 0o755);
  return {
    env: { PATH: `${shim}:${process.env.PATH ?? "/usr/bin:/bin"}` },
    calls: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}

describe("resume without a source, as many git processes as it needs", () => {
  it("an empty store in a repository without kernel folders: none", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    const git = countingGit(box);
    box.env = { ...box.env, ...git.env };
    const { code, result } = await resumeJson(box, [], repo);
    expect(code).toBe(1);
    expect(result.candidates).toEqual([]);
    expect(git.calls()).toEqual([]);
  });

  it("an empty store, run from a subfolder of a repository with an empty _meta/handoffs: one (where the toplevel is)", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    mkdirSync(join(repo, "_meta", "handoffs"), { recursive: true });
    mkdirSync(join(repo, "src", "deep"), { recursive: true });
    const git = countingGit(box);
    box.env = { ...box.env, ...git.env };
    const { code, result } = await resumeJson(box, [], join(repo, "src", "deep"));
    expect(code).toBe(1);
    expect(result.candidates).toEqual([]);
    expect(git.calls()).toHaveLength(1);
    expect(git.calls()[0]).toContain("rev-parse");
  });

  it("an empty store and a kernel manifest in the repository: the whole identity, and the manifest found", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    mkdirSync(join(repo, "_meta", "handoffs"), { recursive: true });
    writeFileSync(join(repo, "_meta", "handoffs", "m.json"), JSON.stringify(fullManifest(), null, 2));
    const git = countingGit(box);
    box.env = { ...box.env, ...git.env };
    mkdirSync(join(repo, "src"));
    const { code, result } = await resumeJson(box, [], join(repo, "src"));
    expect(code).toBe(0);
    expect((result.candidates as { path: string }[]).map((c) => c.path)).toEqual([join(repo, "_meta", "handoffs", "m.json")]);
    expect(git.calls()).toHaveLength(4);
  });

  it("a store with a handoff: the whole identity, once", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    await createHandoff(box, repo, "# Retry path\n\nDecided to keep it.\n\n## Next steps\n\nWire the backoff.\n", ["--keyword", "retry"]);
    const git = countingGit(box);
    box.env = { ...box.env, ...git.env };
    const { code, result } = await resumeJson(box, ["retry"], repo);
    expect(code).toBe(0);
    expect(result.candidates).toHaveLength(1);
    expect(git.calls().map((call) => call.split(" ").find((word) => !word.startsWith("-") && !word.includes("=")))).toEqual(
      expect.arrayContaining(["rev-parse", "rev-list", "config", "symbolic-ref"]),
    );
    expect(git.calls()).toHaveLength(4);
  });

  it("a folder given with --in that is empty: none", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    mkdirSync(join(box.base, "elsewhere"));
    const git = countingGit(box);
    box.env = { ...box.env, ...git.env };
    const { code } = await resumeJson(box, ["--in", join(box.base, "elsewhere")], repo);
    expect(code).toBe(1);
    expect(git.calls()).toEqual([]);
  });
});
