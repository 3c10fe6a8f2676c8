import { defineCommand } from "../commands/command.js";

export const completionSpec = defineCommand({
  name: "completion",
  summary: "Print a shell completion script: bash, zsh or fish.",
  args: "bash|zsh|fish",
  positionals: { min: 1, max: 1, missing: "which shell? bash, zsh or fish" },
  description: `Print a completion script for the shell on stdout. Install, e.g.:
  handoff completion bash > ~/.local/share/bash-completion/completions/handoff
  handoff completion zsh > "\${fpath[1]}/_handoff"
  handoff completion fish > ~/.config/fish/completions/handoff.fish`,
  flags: {},
  exits: { 0: "printed", 2: "unknown shell" },
});
