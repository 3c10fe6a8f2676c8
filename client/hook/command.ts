import { implement } from "../commands/command.js";
import { readStdin } from "../platform/io.js";
import type { HookOutcome } from "./run-hook.js";
import type { hookSpec } from "./spec.js";

/** A hook event is a few hundred bytes; anything near this is not one. */
const EVENT_LIMIT = 1 << 20;

/** `handoff hook`, the hook front end's own command (the CLI's registry binds it, as it binds mcp/'s). */
export const command = implement<typeof hookSpec>()({
  async run({ io, ctx }): Promise<HookOutcome> {
    // Nothing here may fail the agent's compaction or exit: every path returns an outcome.
    try {
      const bytes = await readStdin(io, EVENT_LIMIT);
      if (bytes === "too_large") return { message: "handoff hook: the hook event on stdin is larger than 1 MiB; nothing was done" };
      const { runHook } = await import("./run-hook.js");
      return await runHook(ctx, new TextDecoder().decode(bytes));
    } catch (error) {
      return { message: `handoff hook: ${error instanceof Error ? error.message : String(error)}; nothing was written` };
    }
  },
  human: (result) => ({
    ...(result.output === undefined ? {} : { out: JSON.stringify(result.output) }),
    ...(result.message === undefined ? {} : { err: result.message }),
  }),
  outcome: () => "ok",
});
