import { defineCommand } from "../command.js";

export const revokeSpec = defineCommand({
  name: "revoke",
  summary: "Revoke a link you published from this machine (or --all of them).",
  args: "URL|ID",
  positionals: { min: 0, max: 1 },
  description: `Revoke a handoff you published from this machine: every later read of its share link fails as
revoked, and the server deletes the body. Uses the owner token kept (0600) in the config folder.
--all revokes every live link this machine published, reporting each; it asks first on a
terminal, and needs --yes anywhere else.`,
  flags: {
    all: { type: "boolean", description: "Revoke every live link published from this machine, each reported." },
    yes: { type: "boolean", description: "With --all: do not ask for confirmation (needed when stdin is not a terminal)." },
  },
  exits: { 0: "revoked (with --all: each one revoked or already over)", 2: "usage, or --all without --yes off a terminal", 3: "unknown here, server unreachable or refused" },
});
