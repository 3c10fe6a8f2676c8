import type { Readable } from "node:stream";

/**
 * Everything a command touches of the process, read once at the edge (cli.ts) so commands are
 * plain functions that tests can call with their own env, cwd and streams.
 */
export interface Io {
  /** Data: the result, a path, JSON. */
  out(text: string): void;
  /** Messages: summaries, warnings, errors. */
  err(text: string): void;
  stdin: Readable;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colour on stderr/stdout: off when not a TTY or when NO_COLOR is set. */
  color: boolean;
}

export function processIo(): Io {
  const env = process.env;
  const color = Boolean(process.stderr.isTTY) && env.NO_COLOR === undefined && env.FORCE_COLOR !== "0";
  return {
    out: (text) => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => void process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    stdin: process.stdin,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env,
    cwd: process.cwd(),
    color,
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
