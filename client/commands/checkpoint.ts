import { parseDone, writeCheckpoint } from "../agent/checkpoint.js";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";

export const help = `Usage: handoff checkpoint --position P --next OP [--from MANIFEST] [options]

Record resumed work as a kernel.checkpoint/v1 (smaller than a handoff: enough to resume after a
context reset): the checkout's provenance (branch, commit, dirty, and dirty_tree_sha256 when
there are uncommitted changes), the steps done with their evidence, the steps pending, and where
the work stands. Validated before it is written; kernel's reference validator accepts it.

Options:
  --from MANIFEST   The kernel.handoff/v1 being resumed: its goal, its phases (inherited ones
                    count as done, the others as pending) and its context policy carry over.
  --goal G          The task's goal (default: the --from manifest's objective.goal).
  --position P      Required. The exact place in the work ("routes written, tests not yet").
  --next OP         Required. The literal first action on resume.
  --done STEP=EVIDENCE   A step finished, with its verification; repeat.
  --pending STEP    A step still to do; repeat.
  --output F        A file produced so far; repeat.
  --entrypoint E    The skill or phase to re-enter.
  --name N          identity.name (default: the manifest's, else the repository folder).
  --to PATH         Write here instead of _meta/checkpoints/<name>-<date>.json (never overwrites).
  --json            Print {path, format, checkpoint, warnings}.

Exit codes: 0 written, 1 invalid manifest or checkpoint, 2 usage (no git, missing flag), 3 write failed.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("checkpoint", args, {
    from: { type: "string" },
    goal: { type: "string" },
    position: { type: "string" },
    next: { type: "string" },
    done: { type: "string", multiple: true },
    pending: { type: "string", multiple: true },
    output: { type: "string", multiple: true },
    entrypoint: { type: "string" },
    name: { type: "string" },
    to: { type: "string" },
  });
  if (positionals.length > 0) throw new HandoffError("usage", `handoff checkpoint takes no arguments, got '${positionals[0]}'`, { hint: "pass the parent manifest as --from MANIFEST" });
  for (const flag of ["position", "next"] as const) {
    if (values[flag] === undefined || values[flag].trim() === "") {
      throw new HandoffError("usage", `handoff checkpoint needs --${flag}`, { hint: flag === "position" ? "say where the work stands: --position 'routes written, tests not yet'" : "say the literal first action on resume: --next 'npm test'" });
    }
  }
  const result = await writeCheckpoint({
    ...(values.from === undefined ? {} : { from: values.from }),
    ...(values.goal === undefined ? {} : { goal: values.goal }),
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.entrypoint === undefined ? {} : { entrypoint: values.entrypoint }),
    ...(values.to === undefined ? {} : { to: values.to }),
    position: values.position!,
    next: values.next!,
    done: (values.done ?? []).map(parseDone),
    pending: values.pending ?? [],
    outputs: values.output ?? [],
    cwd: io.cwd,
    env: io.env,
  });
  if (values.json) io.out(JSON.stringify(result, null, 2));
  else io.out(result.path);
  const { steps_completed, pending_steps, provenance } = result.checkpoint;
  io.err(`checkpoint: ${steps_completed.length} done, ${pending_steps.length} pending, ${provenance.branch} at ${provenance.commit.slice(0, 12)}${provenance.dirty ? " (dirty)" : ""}`);
  for (const warning of result.warnings) io.err(`warning: ${warning}`);
  return EXIT.ok;
}
