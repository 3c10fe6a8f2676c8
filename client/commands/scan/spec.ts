import { defineCommand } from "../command.js";

export const scanSpec = defineCommand({
  name: "scan",
  summary: "Preview secret redaction: per rule the count and lines, never the secret.",
  args: "FILE|-",
  positionals: { min: 1, max: 1, missing: "a FILE, or - for stdin" },
  description: `Report, per rule, how many secrets a handoff create or publish would redact and on which
lines; never the secrets themselves. FILE must be a regular file of at most 1 MiB.`,
  flags: {},
  exits: { 0: "nothing found", 1: "secrets found", 2: "usage", 3: "unreadable input or the scan could not finish" },
});
