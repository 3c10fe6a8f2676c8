import { defineCommand } from "../command.js";

export const showSpec = defineCommand({
  name: "show",
  summary: "Print a handoff's raw document (a path or share URL), no orientation.",
  args: "[PATH|URL]",
  positionals: { min: 0, max: 1 },
  description: `Print the document itself on stdout, as it was written: no orientation, no drift check.
A share URL is fetched (one view), decrypted and verified on this machine. Its #key is the secret:
pass the link with --paste (a prompt that does not echo) or --url-stdin, not as a word.`,
  flags: {
    "url-stdin": { type: "boolean", description: "Read one share URL from stdin instead of the command line: printf '%s' \"$URL\" | handoff show --url-stdin." },
    paste: { type: "boolean", description: "Ask for the share URL at a prompt that does not echo it." },
  },
  exits: { 0: "printed", 2: "usage", 3: "unreadable, too large, or the link cannot be read" },
});
