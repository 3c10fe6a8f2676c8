import { defineCommand } from "../command.js";

export const revokeSpec = defineCommand({
  name: "revoke",
  summary: "Revoke a link you published from this machine.",
  args: "URL|ID",
  positionals: { min: 1, max: 1, missing: "a share URL or id ('handoff published' lists yours)" },
  description: `Revoke a handoff you published from this machine: every later read of its share link fails as
revoked, and the server deletes the body. Uses the owner token kept (0600) in the config folder.`,
  flags: {},
  exits: { 0: "revoked", 2: "usage", 3: "unknown here, server unreachable or refused" },
});
