import { defineCommand } from "../command.js";
import { ALLOW_UNSCANNED, NO_REDACT, PUBLISH_FLAGS, WITH_CHANGES } from "../flags.js";

/** On create, the link options only mean something with --publish. */
const PUBLISHING_FLAGS = {
  expires: { ...PUBLISH_FLAGS.expires, requires: ["publish"] },
  "max-views": { ...PUBLISH_FLAGS["max-views"], requires: ["publish"] },
  scope: { ...PUBLISH_FLAGS.scope, requires: ["publish"] },
  server: { ...PUBLISH_FLAGS.server, requires: ["publish"] },
} as const;

export const createSpec = defineCommand({
  name: "create",
  summary: "Write a handoff (also bare 'handoff' with a body on stdin).",
  args: "[FOCUS...]",
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  description: `Write one immutable ce-handoff/v1 Markdown handoff and print how to resume from it.
FOCUS words become resume_focus, the objective for the next session.
Body (required, never empty): --body-file F, stdin when it is not a terminal, or --from-transcript PATH.
A body that says next to nothing is refused (exit 1, nothing written) unless --allow-insufficient;
a thin one (no current state, a one-word objective) is written with the warning 'unsure'.`,
  flags: {
    "body-file": { type: "string", value: "F", description: "Read the body from F ('-' for stdin)." },
    "from-transcript": {
      type: "string",
      value: "PATH",
      conflicts: ["body-file", "format=kernel"],
      description:
        "Draft the body from a session transcript instead (Claude Code's JSONL transcript or a Codex rollout file): the user's requests, the latest plan, changed files, failed commands, the agent's last status; pointers, never tool output.",
    },
    "allow-insufficient": {
      type: "boolean",
      description: "Write a body that says next to nothing (a word, 'see chat', a file list, labels with nothing after them) instead of refusing it.",
    },
    title: { type: "string", value: "T", description: "Title (default: the body's leading heading or first sentence)." },
    summary: { type: "string", value: "S", description: "One distinguishing sentence (default: the body's first sentence)." },
    keyword: { type: "string", value: "K", multiple: true, description: "A discovery keyword; repeat for more." },
    to: {
      type: "string",
      value: "PATH",
      description: "Write to this file, or into this existing folder (a trailing / means a folder), instead of the managed store; an existing file is never overwritten (-2, -3, ...).",
    },
    format: {
      type: "string",
      value: "F",
      choices: ["ce", "kernel"],
      description:
        "ce (Markdown, the default) or kernel (a kernel.handoff/v1 JSON manifest in _meta/handoffs/; the body is a partial manifest in JSON; keys the schema does not know are refused, as kernel's reference refuses them; validated before it is written).",
    },
    pin: { type: "string", value: "PATH", multiple: true, requires: ["format=kernel"], description: "With --format kernel: pin a repository file (provenance.artifacts, sha256); repeatable." },
    publish: { type: "boolean", conflicts: ["local"], description: "Then publish it, end-to-end encrypted, and print a share URL (the local handoff is kept whatever happens)." },
    ...PUBLISHING_FLAGS,
    local: { type: "boolean", description: "Never contact a server (the default without --publish)." },
    "with-changes": WITH_CHANGES,
    "allow-unscanned": ALLOW_UNSCANNED,
    "no-redact": NO_REDACT,
  },
  exits: {
    0: "written (and published)",
    1: "empty, invalid or insufficient body, or changes the secret scan cannot read (nothing written)",
    2: "usage",
    3: "unreadable body or transcript, unsafe store, failed write or publish",
  },
  notes: `Default destination: /tmp/compound-engineering-$UID/ce-handoff/<repo-namespace>/<slug>.md
(HANDOFF_ROOT overrides the root). Git state is recorded read-only; nothing is committed or stashed.`,
});
