import { hookEventName } from "../../../shared/hook/event.js";
import { type GuardOutcome, runGuard } from "../../ops/guard/run-guard.js";
import { implement } from "../command.js";
import { readStdin } from "../../platform/io.js";
import type { guardSpec } from "./spec.js";

/**
 * `handoff guard` through the registry. bin/handoff.cjs normally runs dist/guard.cjs directly
 * (fast start-up); this path serves `main()` callers and gives the same decisions.
 */

/** A hook event is a small JSON object; anything larger is not one (and is blocked when a manifest is active). */
const EVENT_LIMIT = 4 * 1024 * 1024;

export const command = implement<typeof guardSpec>()({
  async run({ io, ctx }): Promise<GuardOutcome> {
    const bytes = await readStdin(io, EVENT_LIMIT);
    const input = bytes === "too_large" ? "" : Buffer.from(bytes).toString("utf8");
    // As dist/guard.cjs does (client/hook/guard.ts): an event that is not a tool call is allowed at once.
    const name = hookEventName(input);
    if (name !== undefined && name !== "PreToolUse") return { exitCode: 0, message: "", root: ctx.cwd };
    return runGuard(input, { cwd: ctx.cwd, env: ctx.env });
  },
  human: (result) => (result.message ? { err: result.message } : {}),
  // 2 is the hook protocol's "block", the exit code of a usage error.
  outcome: (result) => (result.exitCode === 2 ? "usage" : "ok"),
});
