/**
 * The one path text takes to the terminal. Everything a command prints goes through `write`;
 * text that came from someone else (titles, documents, server answers) is made inert first by
 * `terminalSafe` / `oneLine`, so a document cannot drive the terminal.
 */

// C0/C1 controls drive terminals; bidirectional overrides and isolates make shown text read
// differently from what it is ("Trojan Source"). Both are shown escaped.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escaped = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Multi-line text with every control but tab and newline shown escaped. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** One line: newlines escaped too, so a value cannot start a line that looks like ours. */
export function oneLine(text: string): string {
  return terminalSafe(text).replace(/\r?\n|\t/g, (ch) => (ch === "\t" ? "\\t" : "\\n"));
}

/** Writes to a stream with exactly one trailing newline. */
export function write(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Colour is on only for a terminal, and never with NO_COLOR set or FORCE_COLOR=0. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
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
