import { defineCommand } from "../command.js";

export const contextSpec = defineCommand({
  name: "context",
  summary: "Compile a kernel manifest's context into a bundle; --activate arms the guard.",
  args: "MANIFEST",
  positionals: { min: 0, max: 1, missing: "which manifest? pass MANIFEST.json" },
  description: `Compile the context a kernel.handoff/v1 manifest asks for into one Markdown bundle: its
context.required selectors, then context.optional, each resolved inside the repository
({path}, {path, lines: "A-B"}, {path, heading: "## X"}, {path, grep, context: N},
{git_diff: "a..b"}). Tokens are estimated as chars/4 and counted as kernel's reference counts
them: the manifest, the project instructions (CLAUDE.md, .claude/CLAUDE.md, AGENTS.md) and the
selected artifacts; the budget status is within_budget, target_exceeded or maximum_exceeded.
Paths matching context.forbidden are never opened; paths leaving the repository (also through
symlinks) are refused. Read-only.
The repository is the git checkout the manifest is in (else the one the current folder is in).
'handoff context MANIFEST --activate' arms the context guard ('handoff guard', a PreToolUse
hook) for this repository: it writes _meta/.active-manifest.json with the manifest's policy
mode, forbidden globs and selector paths, the same file kernel's 'kernel-manifest activate'
writes. 'handoff context --deactivate [--receipt F]' merges _meta/.context-ledger (bounded
mode's record of reads beyond the manifest) into F's loads_beyond_manifest, then removes both
files. With a ledger and no --receipt it refuses, and the guard stays active.`,
  flags: {
    out: { type: "string", value: "F", description: "Write the bundle to F (mode 0600) instead of stdout. F must not exist yet." },
    receipt: { type: "string", value: "F", description: "Also write a kernel.context-receipt/v1 to F (mode 0600; must not exist yet); with --deactivate, the receipt to merge the ledger into." },
    repo: { type: "string", value: "DIR", description: "Resolve selectors inside DIR instead." },
    activate: {
      type: "boolean",
      conflicts: ["deactivate", "out", "repo", "receipt"],
      description: "Arm the context guard with MANIFEST's policy instead of compiling (prints the pointer file's path).",
    },
    deactivate: { type: "boolean", conflicts: ["out", "repo"], description: "Disarm the guard (takes no MANIFEST); with --receipt F, merge the ledger into F first." },
  },
  exits: {
    0: "compiled (also when optional pieces are missing), activated or deactivated",
    1: "invalid manifest, or a required selector missing or invalid",
    2: "usage or an output file exists",
    3: "unreadable manifest, failed write, or maximum_exceeded (bundle and receipt are still written, as kernel's reference does)",
  },
});
