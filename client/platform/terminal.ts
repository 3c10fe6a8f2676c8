/**
 * The one path text takes to the terminal. Everything a command prints goes through `write`;
 * text that came from someone else (titles, documents, server answers) is made inert first by
 * `terminalSafe` / `oneLine`, so a document cannot drive the terminal.
 */

// The sanitiser itself lives in shared/text/terminal-safe.ts (the one copy, also used by the worker's
// tools and tests); these names are the CLI's vocabulary for it.
import { safeForTerminal, safeLineForTerminal, stringifyForTerminal } from "../../shared/text/terminal-safe.js";
import type { Env } from "./env.js";

/** Multi-line text with every control but tab and newline shown escaped. */
export const terminalSafe = safeForTerminal;

/** One line: newlines and tabs escaped too, so a value cannot start a line that looks like ours. */
export const oneLine = safeLineForTerminal;

/** A `--json` value as indented JSON, with the characters JSON leaves raw but terminals act on escaped. */
export const jsonForTerminal = stringifyForTerminal;

/** Writes to a stream with exactly one trailing newline. */
export function write(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Colour is on only for a terminal, and never with NO_COLOR set or FORCE_COLOR=0. */
export function colorEnabled(stream: { isTTY?: boolean }, env: Env): boolean {
  return Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.FORCE_COLOR !== "0";
}

const SGR = { red: 31, yellow: 33, green: 32, dim: 2, bold: 1 } as const;
export type Paint = keyof typeof SGR;

/** Wraps `text` in a colour when `on`; plain text otherwise. */
export function paint(color: Paint, text: string, on: boolean): string {
  return on ? `\u001b[${SGR[color]}m${text}\u001b[0m` : text;
}

/**
 * A one-line progress note on a terminal when `work` is slow: shown after `afterMs`, erased when
 * the work settles. Off a terminal it prints nothing (logs stay clean).
 */
export async function withProgress<T>(stream: NodeJS.WritableStream & { isTTY?: boolean }, message: string, work: Promise<T>, afterMs = 1000): Promise<T> {
  if (!stream.isTTY) return work;
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    stream.write(`${message}\r`);
  }, afterMs);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
    if (shown) stream.write("\u001b[2K\r");
  }
}
