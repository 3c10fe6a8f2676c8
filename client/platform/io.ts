import { type Stats, fstatSync, statSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import { colorEnabled, withProgress, write } from "./terminal.js";

/**
 * Everything a command touches of the process, read once at the edge (cli.ts) so commands are
 * plain functions that tests can call with their own env, cwd and streams.
 */
export interface Io {
  /** Data: the result, a path, JSON. */
  out(text: string): void;
  /** Messages: summaries, warnings, errors. */
  err(text: string): void;
  /** Runs slow work, showing `message` on a terminal once it takes longer than a second. */
  progress<T>(message: string, work: Promise<T>): Promise<T>;
  stdin: Readable;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colour on stdout: off when not a TTY, with NO_COLOR set, or FORCE_COLOR=0. */
  color: boolean;
}

/**
 * The process's own Io. Text goes straight to descriptors 1 and 2 and the terminal checks are
 * `isTerminal`: setting up process.stdout, stderr or stdin as streams loads Node's stream, socket
 * and TTY modules, about 10 ms of CPU a command (more than some commands' own work). stdin
 * becomes a stream only when a command reads it.
 */
export function processIo(): Io {
  const env = process.env;
  const out = descriptorWriter(1, () => process.stdout);
  const err = descriptorWriter(2, () => process.stderr);
  return {
    out: (text) => out(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => err(text.endsWith("\n") ? text : `${text}\n`),
    progress: (message, work) => (isTerminal(2) ? withProgress(process.stderr, message, work) : work),
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return isTerminal(0);
    },
    env,
    cwd: process.cwd(),
    color: colorEnabled({ isTTY: isTerminal(1) }, env),
  };
}

const lazyRequire = createRequire(import.meta.url);

/**
 * `isatty(fd)`, asking the tty module (whose loading costs about 5 ms of CPU: it brings Node's
 * socket and stream modules) only for a character device that is not /dev/null. A pipe or a
 * file, what an agent gives a command, is not a terminal, and one fstat says so; /dev/null (a
 * stdin that was ignored, as agents and CI start commands) is a character device, and one stat of
 * it says it is that one.
 */
function isTerminal(fd: number): boolean {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch {
    return false;
  }
  if (!stats.isCharacterDevice() || isDevNull(stats)) return false;
  return (lazyRequire("node:tty") as typeof import("node:tty")).isatty(fd);
}

/** Whether a character device is /dev/null: the same device numbers (where there is a /dev/null). */
function isDevNull(device: Stats): boolean {
  const devNull = statSync("/dev/null", { throwIfNoEntry: false });
  if (!devNull?.isCharacterDevice()) return false;
  return devNull.rdev === device.rdev;
}

/**
 * Synchronous writes to `fd`. A non-blocking descriptor that is full (EAGAIN) hands the rest, and
 * everything after it, to the stream, which waits for room and keeps the order; a closed reader
 * (EPIPE, `handoff list | head -1`) ends the output quietly.
 */
function descriptorWriter(fd: number, stream: () => NodeJS.WritableStream): (text: string) => void {
  let mode: "fd" | "stream" | "closed" = "fd";
  return (text) => {
    if (mode === "stream") return void write(stream(), text);
    if (mode === "closed") return;
    const bytes = Buffer.from(text);
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") mode = "closed";
      else if (code === "EAGAIN") {
        mode = "stream";
        stream().write(bytes.subarray(written));
      } else throw error;
    }
  };
}

/** Reads all of stdin up to `limit` bytes; more than that is a clear error, not a silent cut. */
export async function readStdin(io: Io, limit: number): Promise<Uint8Array | "too_large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) return "too_large";
    chunks.push(buf);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
