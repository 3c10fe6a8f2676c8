import { createRequire } from "node:module";
import { getSystemErrorName } from "node:util";
import type { Env } from "./env.js";

/**
 * child_process.spawnSync, for platform/git.ts's synchronous runner, without loading
 * node:child_process where that can be skipped. Loading it loads Node's net, stream and dgram
 * modules (it supports handle passing and async children), about 8 ms of CPU on Node 20, more
 * than the three git processes of `handoff create` together (issue 26); spawnSync itself needs
 * none of them. Its work is done by Node's spawn_sync binding, which child_process.spawnSync
 * calls with options it builds the same way on Node 20, 22 and 24: this module builds those
 * options for its one shape of call (no stdin, stdout and stderr captured as text) and calls
 * the binding through process.binding, which Node keeps for compatibility (DEP0111, a
 * documentation-only deprecation). Where that is not plain to use, child_process.spawnSync
 * runs instead, with the same options: on Windows (whose spawnSync does more), where
 * process.binding is gone or refuses (the permission model), where the user asked Node to warn
 * of pending deprecations (the binding would print a warning), and for an argument or variable
 * holding a NUL byte (spawnSync's own error says so). And on any Node major but those whose
 * spawnSync was read and checked to build exactly these options (VERIFIED_MAJORS): the binding is
 * internal, so a Node release that changes it gets the public API, not a guess.
 */

/** Node majors whose child_process.spawnSync hands the binding these options (test/client/spawn-sync.test.ts compares both routes). */
const VERIFIED_MAJORS = new Set([20, 22, 24]);

export interface SpawnTextOptions {
  cwd: string;
  env: Env;
  /** Milliseconds before the child is stopped (SIGTERM); 0 for none. */
  timeout: number;
  /** Bytes of stdout or stderr before the child is stopped (error ENOBUFS). */
  maxBuffer: number;
}

/** The fields of child_process.spawnSync's answer the callers read, stdout and stderr as UTF-8. */
export interface SpawnTextResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** As spawnSync gives it: `code` (ENOENT, ENOBUFS, ETIMEDOUT, ...) and the message `spawnSync <file> <code>`. */
  error?: NodeJS.ErrnoException;
}

/** What the spawn_sync binding answers (Node's src/spawn_sync.cc). */
interface BindingResult {
  status?: number | null;
  signal?: NodeJS.Signals | null;
  output?: (Buffer | null)[] | null;
  pid?: number;
  /** A negative libuv error number. */
  error?: number;
}

type SpawnBinding = { spawn(options: object): BindingResult };

const lazyRequire = createRequire(import.meta.url);

export function spawnSyncText(file: string, args: readonly string[], options: SpawnTextOptions): SpawnTextResult {
  const envPairs = environmentPairs(options.env);
  const binding = envPairs === undefined || [file, options.cwd, ...args].some(hasNul) ? undefined : spawnBinding();
  if (binding === undefined) return childProcessSpawn(file, args, options);
  const result = binding.spawn({
    maxBuffer: options.maxBuffer,
    cwd: options.cwd,
    stdio: [{ type: "ignore" }, { type: "pipe", readable: false, writable: true }, { type: "pipe", readable: false, writable: true }],
    timeout: options.timeout,
    args: [file, ...args],
    detached: false,
    envPairs,
    file,
    windowsHide: false,
    windowsVerbatimArguments: false,
  });
  const [, stdout, stderr] = result.output ?? [];
  const answer: SpawnTextResult = { status: result.status ?? null, signal: result.signal ?? null, stdout: stdout?.toString("utf8") ?? "", stderr: stderr?.toString("utf8") ?? "" };
  if (result.error) answer.error = spawnError(result.error, file, args);
  return answer;
}

function childProcessSpawn(file: string, args: readonly string[], options: SpawnTextOptions): SpawnTextResult {
  const { spawnSync } = lazyRequire("node:child_process") as typeof import("node:child_process");
  const run = spawnSync(file, args, { ...options, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const answer: SpawnTextResult = { status: run.status, signal: run.signal, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
  if (run.error) answer.error = run.error;
  return answer;
}

/** The binding, where it is plain to use (see the module comment); undefined means child_process. */
function spawnBinding(): SpawnBinding | undefined {
  // Still in Node, though no longer in its type declarations.
  const { binding: load } = process as unknown as { binding?: (name: string) => unknown };
  if (process.platform === "win32" || typeof load !== "function" || !VERIFIED_MAJORS.has(nodeMajor()) || pendingDeprecationWarnings()) return undefined;
  try {
    const binding = load.call(process, "spawn_sync") as Partial<SpawnBinding>;
    return typeof binding.spawn === "function" ? (binding as SpawnBinding) : undefined;
  } catch {
    return undefined;
  }
}

function nodeMajor(): number {
  return Number(process.versions.node.split(".")[0]);
}

/** `--pending-deprecation`, on the command line, in NODE_OPTIONS, or NODE_PENDING_DEPRECATION=1: Node then warns on process.binding. */
function pendingDeprecationWarnings(): boolean {
  const flag = /(^|\s)--pending[-_]deprecation(\s|=|$)/;
  return process.env.NODE_PENDING_DEPRECATION === "1" || process.execArgv.some((arg) => flag.test(arg)) || flag.test(process.env.NODE_OPTIONS ?? "");
}

/** `KEY=value` for each set variable, as spawnSync builds them; undefined when one holds a NUL byte. */
function environmentPairs(env: Env): string[] | undefined {
  const pairs: string[] = [];
  for (const key in env) {
    const value = env[key];
    if (value === undefined) continue;
    const pair = `${key}=${value}`;
    if (hasNul(pair)) return undefined;
    pairs.push(pair);
  }
  return pairs;
}

function hasNul(text: string): boolean {
  return text.includes("\0");
}

/** The error spawnSync makes of the binding's libuv error number. */
function spawnError(errno: number, file: string, args: readonly string[]): NodeJS.ErrnoException {
  const code = getSystemErrorName(errno);
  const error: NodeJS.ErrnoException & { spawnargs?: string[] } = new Error(`spawnSync ${file} ${code}`);
  error.errno = errno;
  error.code = code;
  error.syscall = `spawnSync ${file}`;
  error.path = file;
  error.spawnargs = [...args];
  return error;
}
