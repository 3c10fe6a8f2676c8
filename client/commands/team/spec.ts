import { defineCommand } from "../command.js";
import { PUBLISH_FLAGS, SERVER_ENV } from "../flags.js";

export const teamSpec = defineCommand({
  name: "team",
  summary: "List your team's live links on the server.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: "List the live (not expired, not revoked) team-scoped links of your team, from the server's team listing. Needs a team token.",
  flags: { server: PUBLISH_FLAGS.server },
  exits: { 0: "listed", 3: "not configured, no team token, server unreachable or refused" },
  notes: SERVER_ENV,
});
