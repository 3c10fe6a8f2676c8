import { GUARD_HELP, runGuard } from "../guard/run-guard.js";
import { readStdin, type Io } from "../io.js";

/**
 * `handoff guard` through the CLI's registry. bin/handoff.js normally runs dist/guard.js
 * directly (fast start-up); this path serves `main()` callers and gives the same decisions.
 */
export const help = GUARD_HELP;

/** A hook event is a small JSON object; anything larger is not one (and is blocked when a manifest is active). */
const EVENT_LIMIT = 4 * 1024 * 1024;

export async function run(_args: string[], io: Io): Promise<number> {
  const bytes = await readStdin(io, EVENT_LIMIT);
  const input = bytes === "too_large" ? "" : Buffer.from(bytes).toString("utf8");
  const outcome = runGuard(input, { cwd: io.cwd, env: io.env });
  if (outcome.message) io.err(outcome.message);
  return outcome.exitCode;
}
