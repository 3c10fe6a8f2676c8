import { spawn, spawnSync } from "node:child_process";
import type { Env } from "./env.js";

/**
 * The one way the CLI runs git: read-only and never prompting (no optional locks, so not even
 * the index is refreshed; no terminal prompt; no pager; one language), bounded in time and
 * output. Every caller gets the same answer shape and decides what a failure means for it.
 */

// Read-only git that never prompts: no optional locks (no index refresh), no pager, one language.
const GIT_ENV = { GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C" };
const GIT_TIMEOUT_MS = 30_000;

/**
 * `-c` settings on every git call, since the repository read may be someone else's: git runs
 * nothing the repository's config names. No fsmonitor command (`core.fsmonitor`), no hooks
 * (`core.hooksPath`), no external diff (`diff.external`; pass `--no-ext-diff` to diff too, which
 * also covers `diff.<driver>.command`). Textconv drivers need `--no-textconv` on the diff itself,
 * and clean/smudge filters are named per driver: client/lib/git.ts `safeGitArgs` switches them off.
 */
export const GIT_SAFE_CONFIG: readonly string[] = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "diff.external="];

export interface GitRun<T extends string | Buffer = string> {
  /** git's exit code; 128 when it could not run or was stopped. */
  code: number;
  stdout: T;
  /** Set when git failed: its first stderr line, or why it was stopped. */
  failure?: string;
  /** Output went over `maxBytes`. */
  overflow?: boolean;
}

export interface GitOptions {
  cwd: string;
  env: Env;
  /** Output cap (default 64 MiB). */
  maxBytes?: number;
}

export function runGit(args: string[], options: GitOptions): Promise<GitRun<string>>;
export function runGit(args: string[], options: GitOptions & { binary: true }): Promise<GitRun<Buffer>>;
/**
 * `spawn`, not `execFile`: git gets no stdin at all (it has nothing to read there, and a command
 * that would wait on it ends at once), and the process is set up with less of Node's machinery,
 * a few milliseconds of every command that asks git anything.
 */
export function runGit(args: string[], options: GitOptions & { binary?: boolean }): Promise<GitRun<string | Buffer>> {
  const cap = options.maxBytes ?? 64 * 1024 * 1024;
  const empty = options.binary ? Buffer.alloc(0) : "";
  return new Promise((done) => {
    const child = spawn("git", [...GIT_SAFE_CONFIG, ...args], { cwd: options.cwd, env: { ...options.env, ...GIT_ENV }, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let stopped: "overflow" | "timeout" | undefined;
    let settled = false;
    const settle = (run: GitRun<string | Buffer>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(run);
    };
    const stop = (why: "overflow" | "timeout") => {
      stopped ??= why;
      child.kill();
    };
    const timer = setTimeout(() => stop("timeout"), GIT_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) stop("overflow");
      else out.push(chunk);
    });
    // Only the first line is reported: keep a little, never an unbounded amount.
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString("utf8");
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      settle({ code: 128, stdout: empty, failure: error.code === "ENOENT" ? "git is not installed" : error.message });
    });
    child.on("close", (code) => {
      const exit = code ?? 128;
      if (stopped === "overflow") return settle({ code: exit, stdout: empty, failure: "output over the cap", overflow: true });
      if (stopped === "timeout") return settle({ code: exit, stdout: empty, failure: `git took longer than ${GIT_TIMEOUT_MS / 1000} s` });
      if (code === 0) return settle({ code: 0, stdout: options.binary ? Buffer.concat(out) : Buffer.concat(out).toString("utf8") });
      settle({ code: exit, stdout: empty, failure: stderr.split("\n").find((line) => line.trim() !== "")?.trim() ?? `git exited with ${code ?? "a signal"}` });
    });
  });
}

/**
 * The synchronous form, for the one caller that must answer inside a synchronous check (validate's
 * symlink check asks for the toplevel only when a kernel document names paths): same settings,
 * same answer shape, text only.
 */
export function runGitSync(args: string[], options: GitOptions): GitRun<string> {
  const run = spawnSync("git", [...GIT_SAFE_CONFIG, ...args], {
    cwd: options.cwd,
    env: { ...options.env, ...GIT_ENV },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: options.maxBytes ?? 64 * 1024 * 1024,
  });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    return { code: 128, stdout: "", failure: code === "ENOENT" ? "git is not installed" : code === "ENOBUFS" ? "output over the cap" : run.error.message, ...(code === "ENOBUFS" ? { overflow: true } : {}) };
  }
  if (run.status === 0) return { code: 0, stdout: run.stdout };
  return { code: run.status ?? 128, stdout: "", failure: run.stderr.split("\n").find((line) => line.trim() !== "")?.trim() ?? `git exited with ${run.status ?? "a signal"}` };
}
