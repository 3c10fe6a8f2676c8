import { defineCommand } from "../command.js";

export const guardSpec = defineCommand({
  name: "guard",
  summary: "PreToolUse hook: enforce the active manifest's sealed or bounded context.",
  args: "< EVENT.json",
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  description: `A Claude Code PreToolUse hook (Read, Grep, Glob, Bash): reads the hook event (JSON) on
stdin and allows or blocks the tool call by the manifest that is active (_meta/.active-manifest.json,
written by 'handoff context MANIFEST --activate' or kernel's 'kernel-manifest activate'):
  sealed    blocks any access to a path matching context.forbidden; for Bash, the paths
            the command names and the folders a recursive search reads
  bounded   allows, and appends what is not on the manifest's selectors to _meta/.context-ledger
  advisory  allows everything
No active manifest: allows everything. Exit 2 blocks the call and the agent sees the reason on
stderr. Fails closed: once a manifest is active, anything that stops the guard from knowing the
policy blocks. The launcher runs it from its own small bundle (dist/guard.cjs), so it starts about
as fast as node itself. Hook configuration (settings.json, or the plugin's hooks/hooks.json):
see docs/agents.md.`,
  flags: {},
  exits: { 0: "allowed (or no manifest is active)", 2: "blocked (the hook protocol's block)" },
});
