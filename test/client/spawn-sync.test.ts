import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGitSync } from "../../client/platform/git.js";
import { type SpawnTextOptions, spawnSyncText } from "../../client/platform/spawn-sync.js";
import { ensureBuilt, repoRoot, runProgram } from "../helpers/cli.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// platform/spawn-sync.ts answers as child_process.spawnSync does, on real processes, whether it
// runs through Node's spawn_sync binding or (pending-deprecation warnings asked for) through
// child_process itself; and `handoff create` asks git without loading child_process, net or stream.

const base = tempDir();
const repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n", "big.txt": "x".repeat(100_000) });
const env = { PATH: process.env.PATH, ...GIT_ENV };
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The same call through the binding and through child_process (NODE_PENDING_DEPRECATION=1 sends it there). */
function bothWays(file: string, args: string[], options: Partial<SpawnTextOptions> = {}) {
  const full: SpawnTextOptions = { cwd: repo, env, timeout: 30_000, maxBuffer: 1024 * 1024, ...options };
  const viaBinding = spawnSyncText(file, args, full);
  const saved = process.env.NODE_PENDING_DEPRECATION;
  process.env.NODE_PENDING_DEPRECATION = "1";
  try {
    return { viaBinding, viaChildProcess: spawnSyncText(file, args, full) };
  } finally {
    if (saved === undefined) delete process.env.NODE_PENDING_DEPRECATION;
    else process.env.NODE_PENDING_DEPRECATION = saved;
  }
}

/** What callers read of an error: its code and message. */
const plain = (run: ReturnType<typeof spawnSyncText>) => ({ ...run, error: run.error && { code: run.error.code, message: run.error.message } });

describe("spawnSyncText", () => {
  it("gives stdout and stderr as text, and the exit status, as spawnSync does", () => {
    const head = git(repo, "rev-parse", "HEAD");
    const ok = bothWays("git", ["rev-parse", "HEAD"]);
    expect(plain(ok.viaBinding)).toEqual({ status: 0, signal: null, stdout: `${head}\n`, stderr: "" });
    expect(plain(ok.viaChildProcess)).toEqual(plain(ok.viaBinding));
    const failed = bothWays("git", ["rev-parse", "--verify", "--end-of-options", "refs/heads/nope"]);
    expect(plain(failed.viaBinding)).toEqual({ status: 128, signal: null, stdout: "", stderr: "fatal: Needed a single revision\n" });
    expect(plain(failed.viaChildProcess)).toEqual(plain(failed.viaBinding));
  });

  it("passes the environment and folder it is given, and no stdin", () => {
    const run = bothWays("sh", ["-c", 'printf "%s|%s|" "$MARK" "$(pwd)"; cat'], { env: { PATH: process.env.PATH, MARK: "é ok" } });
    expect(run.viaBinding).toEqual({ status: 0, signal: null, stdout: `é ok|${repo}|`, stderr: "" });
    expect(run.viaChildProcess).toEqual(run.viaBinding);
  });

  it("a program that is not there: ENOENT, as spawnSync words it", () => {
    const run = bothWays("git", ["status"], { env: { PATH: join(base, "no-such-folder") } });
    expect(plain(run.viaBinding)).toEqual({ status: null, signal: null, stdout: "", stderr: "", error: { code: "ENOENT", message: "spawnSync git ENOENT" } });
    expect(plain(run.viaChildProcess)).toEqual(plain(run.viaBinding));
  });

  it("output over maxBuffer stops the program with ENOBUFS; a time limit with ETIMEDOUT and SIGTERM", () => {
    const over = bothWays("git", ["cat-file", "blob", "HEAD:big.txt"], { maxBuffer: 1000 });
    expect(over.viaBinding.error?.code).toBe("ENOBUFS");
    expect(over.viaChildProcess.error?.code).toBe("ENOBUFS");
    const slow = bothWays("sleep", ["5"], { timeout: 200 });
    expect(plain(slow.viaBinding)).toEqual({ status: null, signal: "SIGTERM", stdout: "", stderr: "", error: { code: "ETIMEDOUT", message: "spawnSync sleep ETIMEDOUT" } });
    expect(plain(slow.viaChildProcess)).toEqual(plain(slow.viaBinding));
  });

  it("a NUL byte in an argument is spawnSync's own error, as before", () => {
    expect(() => spawnSyncText("git", ["a\0b"], { cwd: repo, env, timeout: 1000, maxBuffer: 1000 })).toThrow(/null bytes/);
  });

  it("runGitSync reads through it: text, git's first stderr line, not installed", () => {
    expect(runGitSync(["rev-parse", "HEAD"], { cwd: repo, env })).toEqual({ code: 0, stdout: `${git(repo, "rev-parse", "HEAD")}\n` });
    expect(runGitSync(["rev-parse", "--verify", "--end-of-options", "refs/heads/nope"], { cwd: repo, env })).toEqual({ code: 128, stdout: "", failure: "fatal: Needed a single revision" });
    expect(runGitSync(["cat-file", "blob", "HEAD:big.txt"], { cwd: repo, env, maxBytes: 1000 })).toMatchObject({ stdout: "", failure: "output over the cap", overflow: true });
    expect(runGitSync(["status"], { cwd: repo, env: { PATH: join(base, "no-such-folder") } })).toEqual({ code: 128, stdout: "", failure: "git is not installed" });
  });
});

describe("handoff create", () => {
  const preload = join(base, "builtins.cjs");
  beforeAll(async () => {
    await ensureBuilt();
    // Written with writeSync: process.stderr, a pipe here, would load net and stream itself.
    writeFileSync(preload, 'process.on("exit", () => require("node:fs").writeSync(2, "\\nBUILTINS " + JSON.stringify(process.moduleLoadList) + "\\n"));\n');
  }, 600_000);

  /** Node's own modules a create in `repo` loaded, with `extraEnv`. */
  async function builtinsOfCreate(title: string, extraEnv: Record<string, string> = {}): Promise<string[]> {
    const out = join(base, "out");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(base, "body.md"), "# Retry path\n\nDecided to keep the retry path.\n\n## Current state\n\nNext: wire the backoff.\n");
    const run = await runProgram(
      process.execPath,
      ["-r", preload, join(repoRoot, "bin", "handoff.cjs"), "create", "--body-file", join(base, "body.md"), "--title", title, "--to", `${out}/`, "--json"],
      {
        cwd: repo,
        env: { HOME: base, ...GIT_ENV, ...extraEnv },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).metadata.head).toBe(git(repo, "rev-parse", "HEAD"));
    const listed = /BUILTINS (\[.*\])/.exec(run.stderr)?.[1];
    expect(listed, run.stderr).toBeDefined();
    return (JSON.parse(listed!) as string[]).filter((name) => name.startsWith("NativeModule ")).map((name) => name.slice("NativeModule ".length));
  }

  it("asks git without loading child_process, net or stream, and with them where the binding would warn", async () => {
    const loaded = await builtinsOfCreate("Plain");
    expect(loaded.filter((name) => ["child_process", "net", "stream"].includes(name))).toEqual([]);
    const warned = await builtinsOfCreate("Warned", { NODE_PENDING_DEPRECATION: "1" });
    expect(warned).toContain("child_process");
  });
});
