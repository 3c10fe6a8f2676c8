import { type CheckpointResult, parseDone, writeCheckpoint } from "../../ops/checkpoint/checkpoint.js";
import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { oneLine } from "../../platform/terminal.js";
import type { checkpointSpec } from "./spec.js";

export const command = implement<typeof checkpointSpec>()({
  async run({ flags, ctx }): Promise<CheckpointResult> {
    const position = required(flags.position, "position", "say where the work stands: --position 'routes written, tests not yet'");
    const next = required(flags.next, "next", "say the literal first action on resume: --next 'npm test'");
    return writeCheckpoint({
      ...(flags.from === undefined ? {} : { from: flags.from }),
      ...(flags.goal === undefined ? {} : { goal: flags.goal }),
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.entrypoint === undefined ? {} : { entrypoint: flags.entrypoint }),
      ...(flags.to === undefined ? {} : { to: flags.to }),
      position,
      next,
      done: (flags.done ?? []).map(parseDone),
      pending: flags.pending ?? [],
      outputs: flags.output ?? [],
      cwd: ctx.cwd,
      env: ctx.env,
    });
  },
  human(result) {
    const { steps_completed, pending_steps, provenance } = result.checkpoint;
    const lines = [
      oneLine(`checkpoint: ${steps_completed.length} done, ${pending_steps.length} pending, ${provenance.branch} at ${provenance.commit.slice(0, 12)}${provenance.dirty ? " (dirty)" : ""}`),
    ];
    for (const warning of result.warnings) lines.push(`warning: ${oneLine(warning)}`);
    return { out: oneLine(result.path), err: lines.join("\n") };
  },
  outcome: () => "ok",
});

/** Given (the parser checks that), and not blank. */
function required(value: string | undefined, flag: "position" | "next", hint: string): string {
  if (value === undefined || value.trim() === "") throw new HandoffError("usage", `handoff checkpoint needs --${flag}`, { hint });
  return value;
}
