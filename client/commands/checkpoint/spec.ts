import { defineCommand } from "../command.js";

export const checkpointSpec = defineCommand({
  name: "checkpoint",
  summary: "Write a kernel.checkpoint/v1 of resumed work (provenance, steps).",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Record resumed work as a kernel.checkpoint/v1 (smaller than a handoff: enough to resume after a
context reset): the checkout's provenance (branch, commit, dirty, and dirty_tree_sha256 when
there are uncommitted changes), the steps done with their evidence, the steps pending, and where
the work stands. Validated before it is written; kernel's reference validator accepts it.`,
  flags: {
    from: {
      type: "string",
      value: "MANIFEST",
      description: "The kernel.handoff/v1 being resumed: its goal, its phases (inherited ones count as done, the others as pending) and its context policy carry over.",
    },
    goal: { type: "string", value: "G", description: "The task's goal (default: the --from manifest's objective.goal)." },
    position: { type: "string", value: "P", required: true, description: 'Required. The exact place in the work ("routes written, tests not yet").' },
    next: { type: "string", value: "OP", required: true, description: "Required. The literal first action on resume." },
    done: { type: "string", value: "STEP=EVIDENCE", multiple: true, description: "A step finished, with its verification; repeat." },
    pending: { type: "string", value: "STEP", multiple: true, description: "A step still to do; repeat." },
    output: { type: "string", value: "F", multiple: true, description: "A file produced so far; repeat." },
    entrypoint: { type: "string", value: "E", description: "The skill or phase to re-enter." },
    name: { type: "string", value: "N", description: "identity.name (default: the manifest's, else the repository folder)." },
    to: { type: "string", value: "PATH", description: "Write here instead of _meta/checkpoints/<name>-<date>.json (never overwrites)." },
  },
  exits: { 0: "written", 1: "invalid manifest or checkpoint", 2: "usage (no git, missing flag)", 3: "write failed" },
});
