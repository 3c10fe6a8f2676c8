import { createInterface } from "node:readline/promises";
import { HandoffError } from "../../shared/errors.js";
import type { Io } from "../platform/io.js";

/**
 * Asks a yes/no question on a terminal (the answer on stdin, the question on stderr); only "y" or
 * "yes" is a yes. Off a terminal nobody can answer, so it is a usage error that names `flag`.
 */
export async function confirm(io: Io, question: string, flag: string): Promise<boolean> {
  if (!io.stdinIsTTY) throw new HandoffError("usage", `this asks for confirmation and stdin is not a terminal: pass ${flag} to go ahead`, { hint: `re-run with ${flag}` });
  io.err(`${question} [y/N] `);
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    const answer = await new Promise<string>((resolve) => {
      lines.once("line", resolve);
      lines.once("close", () => resolve(""));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    lines.close();
  }
}
