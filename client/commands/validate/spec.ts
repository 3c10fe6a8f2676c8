import { defineCommand } from "../command.js";

export const validateSpec = defineCommand({
  name: "validate",
  summary: "Check a handoff or kernel document against its contract.",
  args: "FILE",
  positionals: { min: 1, max: 1, missing: "a FILE to check" },
  description: `Check a handoff against its contract: ce-handoff/v1 Markdown (frontmatter and body), or a kernel
JSON document (a .json file, or content starting with '{'): a kernel.handoff/v1 manifest, a
kernel.checkpoint/v1 or a kernel.context-receipt/v1, chosen by its "schema" field. A kernel
document's verdict is kernel's reference validator's (docs/conformance.md); Handoff's own extra
checks are listed as warnings and do not make it invalid.
Each problem is printed as 'json.path: message', e.g. 'frontmatter.created_at: must be ISO-8601 UTC'.`,
  flags: {},
  exits: { 0: "valid (warnings or not)", 1: "invalid", 2: "usage, unreadable or unparseable (validate's own)" },
});
