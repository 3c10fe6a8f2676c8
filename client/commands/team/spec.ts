import { defineCommand } from "../command.js";
import { PUBLISH_FLAGS, SERVER_ENV } from "../flags.js";

export const teamSpec = defineCommand({
  name: "team",
  summary: "Your team's inbox (titles, no links sent), invites, joining, key rotation.",
  args: "[list|invite|join|rotate]",
  positionals: { min: 0, max: 1 },
  description: `list (the default): your team's live links from the server's team listing, with the title,
publisher and creation time from each entry's card, opened with this machine's team key (the
server cannot read them). A card shows who it is from only when that member's key signed it and
this machine trusts that key (or who introduced it); any other card is marked unverified. An
entry without a card, or sealed with a key you lack, is listed as such.
invite: print an invite for one new member: their team token (read from stdin or a prompt, never
argv), your team key ring, the members you trust, and a member key for them (--member NAME),
introduced by yours, which signs their cards. join: read an invite from stdin or a prompt (never
argv) and save its token, keys, member key and members (0600), bound to its server. rotate: start
a new team key (older ones are kept, so older entries stay readable) and print a keys-only
invite, with the members you trust, for the members who stay.`,
  flags: {
    server: PUBLISH_FLAGS.server,
    member: {
      type: "string",
      value: "NAME",
      description: "invite: the new member's name, as teammates will see it on their cards (needed with a team token; with --keys-only, gives a member who has none a member key).",
    },
    "new-key": { type: "boolean", description: "invite: make the team's first key (once per team, by whoever sends the first invite)." },
    "keys-only": { type: "boolean", description: "invite: carry the key ring without a team token (for a member who has one)." },
  },
  exits: {
    0: "listed, invited, joined or rotated",
    1: "malformed invite, key ring or member key",
    2: "usage, or a --member name that cannot be one",
    3: "not configured, no team token, server unreachable or refused",
  },
  notes: SERVER_ENV,
});
