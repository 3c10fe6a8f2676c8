import { defineCommand } from "../command.js";

export const configSpec = defineCommand({
  name: "config",
  summary: "Read or change the config file: get KEY, set KEY VALUE, path.",
  args: "get KEY | set KEY VALUE | path",
  positionals: { min: 1, max: 3, missing: "get KEY, set KEY VALUE, or path" },
  description: `Read or change $XDG_CONFIG_HOME/handoff/config.json (mode 0600). Keys: server, token,
team_token. 'get' of a token prints whether it is set, never its value. 'set token -' (and
'set team_token -') reads the value from stdin, where no other user can see it; a token on the
command line still works, with a warning (ps and shell history show it).`,
  flags: {},
  exits: { 0: "done", 1: "the key is not set", 2: "usage or unknown key", 3: "the file cannot be read or written" },
});
