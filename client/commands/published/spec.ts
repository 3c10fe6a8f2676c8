import { defineCommand } from "../command.js";

export const publishedSpec = defineCommand({
  name: "published",
  summary: "List what you published from this machine and its state.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `List the handoffs you published from this machine, newest first, with their state: active
(views left, from the server), exhausted (no views left), expired, revoked, gone (the server no
longer knows it), or unknown (the server could not be asked; the reason is shown). Share keys
are never stored, so the list shows links without their #key. A passphrase link shows its wrong
passphrases: after 5 each next try waits, after 20 it is locked until you reset it (--unlock)
or revoke it.`,
  flags: {
    offline: { type: "boolean", description: "Do not ask the server: states from local records only (views are not known)." },
    unlock: {
      type: "string",
      value: "ID",
      conflicts: ["offline"],
      description: "Reset the wrong-passphrase count, wait and lock of one passphrase link you published (its id or URL), then list it.",
    },
  },
  exits: { 0: "listed (or reset)", 3: "the config folder or the local records cannot be read; --unlock: unknown here, server unreachable or refused" },
});
