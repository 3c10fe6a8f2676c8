import { createRequire } from "node:module";
import { HandoffError } from "../../shared/errors.js";
import type { Env } from "./env.js";

/**
 * node:child_process, loaded at the first git call: loading it brings Node's socket, stream and
 * dgram modules, about 8 ms of CPU, which a command that asks git nothing (resume over an empty
 * store, list, show) would pay at start-up for nothing.
 */
const lazyRequire = createRequire(import.meta.url);
let childProcess: typeof import("node:child_process") | undefined;
const processes = () => (childProcess ??= lazyRequire("node:child_process") as typeof import("node:child_process"));

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
 * and clean/smudge filters are named per driver: runGit switches every one the repository's config
 * names off (filterOverrides) on each subcommand that can read file contents (CONTENT_READERS).
 */
export const GIT_SAFE_CONFIG: readonly string[] = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "diff.external="];

/**
 * More for a call that writes a changes bundle into a checkout (`git apply`, its rehearsal), on
 * top of GIT_SAFE_CONFIG and the filter overrides every `apply` gets: git's own path protections
 * for NTFS and HFS+ on every platform (it then refuses `.GIT`, `git~1` and the like itself too),
 * no attributes file but the repository's own (`core.attributesFile`; with GIT_APPLY_ENV, none of
 * the system's either), and whitespace settings that cannot fail or rewrite a patch. Merge
 * drivers that attributes name are checked by the caller before a three-way apply.
 */
export const GIT_APPLY_CONFIG: readonly string[] = ["-c", "core.protectNTFS=true", "-c", "core.protectHFS=true", "-c", "core.attributesFile=/dev/null", "-c", "apply.whitespace=nowarn"];

/** The environment GIT_APPLY_CONFIG goes with: the system attributes file is not read. */
export const GIT_APPLY_ENV: Readonly<Record<string, string>> = { GIT_ATTR_NOSYSTEM: "1" };

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
  /**
   * The repository's filter drivers, as `git config -z --get-regexp` listed them (keys outside
   * `filter.` are skipped), for a caller that asked config already: a content reader then needs
   * no config process of its own. Empty when that listing failed or found nothing.
   */
  filterListing?: string;
}

/**
 * The `-c` overrides that switch off each filter driver in `git config -z --get-regexp ^filter\.`
 * output (entries `key\nvalue\0`): an empty command is no filter at all (git's convert.c skips
 * it), and `required=false` keeps git from refusing a file whose filter is now empty. A driver
 * name `-c` cannot carry (one with '=') is an error: better no diff than a filter that runs.
 *
 * @example
 * ```ts
 * filterOverrides("filter.lfs.clean\ngit-lfs clean -- %f\0") // ["-c", "filter.lfs.clean=", "-c", "filter.lfs.smudge=", ...]
 * ```
 */
export function filterOverrides(listing: string): string[] {
  const drivers = new Set<string>();
  for (const entry of listing.split("\0")) {
    const key = entry.split("\n", 1)[0] ?? "";
    if (!key.startsWith("filter.") || key.lastIndexOf(".") <= "filter".length) continue;
    drivers.add(key.slice("filter.".length, key.lastIndexOf(".")));
  }
  for (const name of drivers) {
    if (name.includes("=")) {
      throw new HandoffError("unsafe_store", `the repository defines a filter driver named '${name}', which cannot be switched off`, {
        hint: "rename the filter driver in the repository's config",
      });
    }
  }
  return [...drivers].flatMap((name) => [...["clean", "smudge", "process"].flatMap((key) => ["-c", `filter.${name}.${key}=`]), "-c", `filter.${name}.required=false`]);
}

export function runGit(args: string[], options: GitOptions): Promise<GitRun<string>>;
export function runGit(args: string[], options: GitOptions & { binary: true }): Promise<GitRun<Buffer>>;
/**
 * `spawn`, not `execFile`: git gets no stdin at all (it has nothing to read there, and a command
 * that would wait on it ends at once), and the process is set up with less of Node's machinery,
 * a few milliseconds of every command that asks git anything.
 */
export async function runGit(args: string[], options: GitOptions & { binary?: boolean }): Promise<GitRun<string | Buffer>> {
  if (!readsContent(args)) return spawnGit(args, options);
  // Reading config runs nothing; the overrides then cover every filter driver it names.
  const listing = options.filterListing ?? listingOf(await spawnGit(FILTER_LISTING, { cwd: options.cwd, env: options.env }));
  const safe = withFilterOverrides(args, listing);
  return "failure" in safe ? { code: 128, stdout: options.binary ? Buffer.alloc(0) : "", failure: safe.failure } : spawnGit(safe.args, options);
}

/** The config read that names every filter driver (see filterOverrides). */
const FILTER_LISTING = ["config", "-z", "--get-regexp", "^filter\\."];

/** The listing a FILTER_LISTING run printed; empty when it failed (no config, or none found). */
function listingOf(run: GitRun<string | Buffer>): string {
  return run.code === 0 ? String(run.stdout) : "";
}

/** `args` behind the overrides that switch off every driver `listing` names, or why they cannot be made. */
function withFilterOverrides(args: string[], listing: string): { args: string[] } | { failure: string } {
  try {
    return { args: [...filterOverrides(listing), ...args] };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * git subcommands that can read or write a file's contents through the repository's clean or
 * smudge filters or textconv drivers (status refreshes against the worktree, diff and grep read
 * it, add and hash-object clean it, show and cat-file can textconv, apply cleans what it reads and
 * smudges what it writes): each gets the filter overrides.
 */
const CONTENT_READERS: ReadonlySet<string> = new Set(["status", "diff", "diff-files", "diff-index", "add", "hash-object", "grep", "show", "cat-file", "log", "stash", "blame", "apply"]);

/** Whether `args` run a content reader: its subcommand is the first word after any leading `-c key=value` pairs. */
function readsContent(args: readonly string[]): boolean {
  let at = 0;
  while (args[at] === "-c") at += 2;
  return CONTENT_READERS.has(args[at] ?? "");
}

function spawnGit(args: string[], options: GitOptions & { binary?: boolean }): Promise<GitRun<string | Buffer>> {
  const cap = options.maxBytes ?? 64 * 1024 * 1024;
  const empty = options.binary ? Buffer.alloc(0) : "";
  return new Promise((done) => {
    const child = processes().spawn("git", [...GIT_SAFE_CONFIG, ...args], { cwd: options.cwd, env: { ...options.env, ...GIT_ENV }, stdio: ["ignore", "pipe", "pipe"] });
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
      settle({
        code: exit,
        stdout: empty,
        failure:
          stderr
            .split("\n")
            .find((line) => line.trim() !== "")
            ?.trim() ?? `git exited with ${code ?? "a signal"}`,
      });
    });
  });
}

/**
 * The synchronous form: same settings, the same filter overrides for a content reader, the same
 * answer shape, text only. For a caller that must answer inside a synchronous check (the work
 * tree root, work-tree.ts, when its own walk cannot tell: validate's symlink check asks for it
 * inside the kernel checks), and for a command-line process that has nothing to do while git
 * runs (`handoff create`'s capture, lib/git.ts): spawnSync sets up no streams and no event loop
 * turn per process.
 */
export function runGitSync(args: string[], options: GitOptions): GitRun<string> {
  if (!readsContent(args)) return spawnGitSync(args, options);
  const listing = options.filterListing ?? listingOf(spawnGitSync(FILTER_LISTING, { cwd: options.cwd, env: options.env }));
  const safe = withFilterOverrides(args, listing);
  return "failure" in safe ? { code: 128, stdout: "", failure: safe.failure } : spawnGitSync(safe.args, options);
}

function spawnGitSync(args: string[], options: GitOptions): GitRun<string> {
  const run = processes().spawnSync("git", [...GIT_SAFE_CONFIG, ...args], {
    cwd: options.cwd,
    env: { ...options.env, ...GIT_ENV },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: options.maxBytes ?? 64 * 1024 * 1024,
  });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    return {
      code: 128,
      stdout: "",
      failure: code === "ENOENT" ? "git is not installed" : code === "ENOBUFS" ? "output over the cap" : run.error.message,
      ...(code === "ENOBUFS" ? { overflow: true } : {}),
    };
  }
  if (run.status === 0) return { code: 0, stdout: run.stdout };
  return {
    code: run.status ?? 128,
    stdout: "",
    failure:
      run.stderr
        .split("\n")
        .find((line) => line.trim() !== "")
        ?.trim() ?? `git exited with ${run.status ?? "a signal"}`,
  };
}
