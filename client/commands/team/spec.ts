import { defineCommand } from "../command.js";
import { PUBLISH_FLAGS, SERVER_ENV } from "../flags.js";

export const teamSpec = defineCommand({
  name: "team",
  summary: "Your team's inbox (titles, no links sent), invites, joining, key rotation.",
  args: "[list|invite|join|rotate]",
  positionals: { min: 0, max: 1 },
  description: `list (the default): your team's live links from the server's team listing, with the title,
publisher and creation time from each entry's card, opened with this machine's team key (the
server cannot read them). An entry without a card, or sealed with a key you lack, is listed as such.
invite: print an invite for one new member: their team token (read from stdin or a prompt, never
argv) and your team key ring. join: read an invite from stdin or a prompt (never argv) and save
its token and keys (0600), bound to its server. rotate: start a new team key (older ones are kept,
so older entries stay readable) and print a keys-only invite for the members who stay.`,
  flags: {
    server: PUBLISH_FLAGS.server,
    "new-key": { type: "boolean", description: "invite: make the team's first key (once per team, by whoever sends the first invite)." },
    "keys-only": { type: "boolean", description: "invite: carry the key ring without a team token (for a member who has one)." },
  },
  exits: { 0: "listed, invited, joined or rotated", 1: "malformed invite or key ring", 2: "usage", 3: "not configured, no team token, server unreachable or refused" },
  notes: SERVER_ENV,
});
