import { defineCommand } from "../command.js";

export const renderSpec = defineCommand({
  name: "render",
  summary: "Render a kernel manifest to Markdown (never authoritative).",
  args: "FILE.json",
  positionals: { min: 1, max: 1, missing: "which manifest? pass FILE.json" },
  description: `Render a kernel.handoff/v1 manifest as Markdown for people. The JSON stays the source of
truth: the first line of the output says so. A manifest that does not validate is not
rendered; every problem is listed as 'path: message'.`,
  flags: {
    out: { type: "string", value: "F", description: "Write the Markdown to F instead of stdout. F must not exist yet." },
    force: { type: "boolean", requires: ["out"], description: "With --out, replace F if it exists." },
  },
  exits: { 0: "rendered", 1: "not a valid kernel manifest (a Markdown handoff is refused by name)", 2: "usage or --out exists", 3: "unreadable file or failed write" },
});
