import { execFile } from "node:child_process";

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
 * and clean/smudge filters are named per driver: client/git.ts `safeGitArgs` switches them off.
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
  env: NodeJS.ProcessEnv;
  /** Output cap (default 64 MiB). */
  maxBytes?: number;
}

export function runGit(args: string[], options: GitOptions): Promise<GitRun<string>>;
export function runGit(args: string[], options: GitOptions & { binary: true }): Promise<GitRun<Buffer>>;
export function runGit(args: string[], options: GitOptions & { binary?: boolean }): Promise<GitRun<string | Buffer>> {
  return new Promise((done) => {
    execFile(
      "git",
      [...GIT_SAFE_CONFIG, ...args],
      { cwd: options.cwd, env: { ...options.env, ...GIT_ENV }, maxBuffer: options.maxBytes ?? 64 * 1024 * 1024, timeout: GIT_TIMEOUT_MS, encoding: options.binary ? "buffer" : "utf8" },
      (error, stdout, stderr) => {
        if (!error) return done({ code: 0, stdout });
        const empty = options.binary ? Buffer.alloc(0) : "";
        const code = (error as NodeJS.ErrnoException).code;
        const exit = typeof code === "number" ? code : 128;
        if (code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return done({ code: exit, stdout: empty, failure: "output over the cap", overflow: true });
        if (error.killed) return done({ code: exit, stdout: empty, failure: `git took longer than ${GIT_TIMEOUT_MS / 1000} s` });
        if (code === "ENOENT") return done({ code: exit, stdout: empty, failure: "git is not installed" });
        done({ code: exit, stdout: empty, failure: String(stderr).split("\n").find((line) => line.trim() !== "")?.trim() ?? error.message });
      },
    );
  });
}
