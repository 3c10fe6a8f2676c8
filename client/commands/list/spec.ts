import { defineCommand } from "../command.js";

export const listSpec = defineCommand({
  name: "list",
  summary: "List the handoffs in the managed store, newest first.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: "List the handoffs in the managed store on this machine, newest first: created, title, path.",
  flags: {},
  exits: { 0: "listed (also when empty)", 3: "the store cannot be read" },
});
