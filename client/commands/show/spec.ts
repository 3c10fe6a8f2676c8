import { defineCommand } from "../command.js";

export const showSpec = defineCommand({
  name: "show",
  summary: "Print a handoff's raw document (a path or share URL), no orientation.",
  args: "PATH|URL",
  positionals: { min: 1, max: 1, missing: "a handoff file or share URL" },
  description: `Print the document itself on stdout, as it was written: no orientation, no drift check.
A share URL is fetched (one view), decrypted and verified on this machine.`,
  flags: {},
  exits: { 0: "printed", 2: "usage", 3: "unreadable, too large, or the link cannot be read" },
});
