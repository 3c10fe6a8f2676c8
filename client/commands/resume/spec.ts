import { defineCommand } from "../command.js";

export const resumeSpec = defineCommand({
  name: "resume",
  summary: "Orient from a handoff file, '-' or URL; without one, shortlist the store.",
  args: "[SOURCE | FOLDER | KEYWORDS...]",
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  description: `With a SOURCE (a file of any format or author, '-' for stdin, or an http(s) URL): read it and
print an orientation: objective, progress, decisions, current state, unfinished work, whether
it is enough to resume from, and drift against the current checkout. The source's text is shown
fenced as untrusted data. Nothing is executed, written or marked consumed.
Without a source: search the managed store (or FOLDER / --in DIR) and print a shortlist of
likely handoffs with match reasons. Nothing is selected: resume again with the one you choose.`,
  flags: {
    in: { type: "string", value: "DIR", description: "Search this folder instead of the managed store." },
    limit: { type: "string", value: "N", description: "Shortlist length, 1 to 100 (default 5)." },
    "max-candidates": { type: "string", value: "N", description: "Files considered per folder, most recent first (default 1000); a cut is stated." },
    "url-stdin": {
      type: "boolean",
      conflicts: ["in"],
      description: "Read one share URL from stdin instead of the command line, so its #key never shows in the process list (ps): printf '%s' \"$URL\" | handoff resume --url-stdin. Works with --peek.",
    },
    paste: {
      type: "boolean",
      conflicts: ["in", "url-stdin"],
      description:
        "Ask for the share URL at a prompt that does not echo it: the key stays out of the process list and shell history. What Handoff prints and copies for a link. Works with --peek, --passphrase and --apply-changes.",
    },
    peek: { type: "boolean", description: "With a share URL: show its metadata (expiry, views left, whether it needs a passphrase) without spending a view." },
    passphrase: {
      type: "boolean",
      description:
        "With a share URL that needs one: read its passphrase from stdin (never argv); with --url-stdin, stdin holds the URL on its first line and the passphrase after it. On a terminal it is asked for when the server says so.",
    },
    team: {
      type: "boolean",
      description: "Search your team's inbox on the server instead (titles from each entry's card, opened with your team key; no view spent); --team ID resumes that entry without its link.",
    },
    "apply-changes": {
      type: "boolean",
      description:
        "Apply the changes bundle the handoff carries (create/publish --with-changes), staged: only files its manifest lists, onto a checkout with no uncommitted tracked changes, at the recorded commit or (three-way) a descendant of it; anything else is refused and nothing is applied.",
    },
    "dry-run": {
      type: "boolean",
      requires: ["apply-changes"],
      description: "With --apply-changes: list every file with its change, mode, size and flags, and whether it would apply now; write nothing.",
    },
    "allow-flagged": {
      type: "boolean",
      requires: ["apply-changes"],
      description: "With --apply-changes: also apply flagged files (executable bits, symbolic links, dotfiles and hooks that tools obey or run), after reviewing them with --dry-run.",
    },
  },
  exits: {
    0: "shortlist or orientation (and changes applied)",
    1: "nothing matched, source insufficient, hard divergence, the changes were refused or could not be applied (nothing was), or an empty passphrase",
    2: "usage",
    3: "source unreadable (missing, too large, HTTP, link expired or revoked)",
  },
});
