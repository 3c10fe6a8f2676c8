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

export function processIo(): Io {
  const env = process.env;
  return {
    out: (text) => write(process.stdout, text),
    err: (text) => write(process.stderr, text),
    progress: (message, work) => withProgress(process.stderr, message, work),
    stdin: process.stdin,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env,
    cwd: process.cwd(),
    color: colorEnabled(process.stdout, env),
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
