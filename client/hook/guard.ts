import { readFileSync, writeSync } from "node:fs";
import { hookEventName } from "../../shared/hook/event.js";
import { type GuardOutcome, guardException, runGuard } from "../ops/guard/run-guard.js";

/**
 * The guard's own entry (dist/guard.cjs): bin/handoff.cjs runs it for `handoff guard` before the
 * CLI bundle is loaded, because a hook runs on every tool call and must start near `node -e 0`.
 * `handoff guard --help` never reaches it: the launcher prints the registry's help for it.
 * Node built-ins only, no zod, no streams: stdin is read and stderr written with plain
 * synchronous calls (setting up process.stdin/stderr streams costs more than the decision).
 */
export function runGuardProcess(): void {
  let outcome: GuardOutcome;
  try {
    const input = readStdinSync();
    // The guard judges tool calls. VS Code runs every registered hook on every event (it ignores
    // matchers), so a session's start, stop or compaction reaches it too: allowed at once,
    // before any state is read. An event with no name is judged (and blocked while a manifest
    // is active and it cannot be read).
    const name = hookEventName(input);
    if (name !== undefined && name !== "PreToolUse") {
      process.exitCode = 0;
      return;
    }
    outcome = runGuard(input, { cwd: process.cwd(), env: process.env });
  } catch (cause) {
    // Claude Code runs the tool call on any exit but 2: no exception may end in exit 1.
    outcome = guardException(process.cwd(), cause);
  }
  try {
    if (outcome.message) writeSync(2, `${outcome.message}\n`);
  } catch {
    // stderr closed: the exit code still says it.
  }
  process.exitCode = outcome.exitCode;
}

function readStdinSync(): string {
  try {
    return readFileSync(0, "utf8");
  } catch (cause) {
    // A terminal or a closed stdin: no event (the guard then allows only when nothing is active).
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EOF" || code === "EBADF" || code === "ENXIO") return "";
    throw cause;
  }
}
