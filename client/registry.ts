import { MAX_VIEWS_LIMIT } from "../shared/api/limits.js";
import { defineCommand, type FlagSpecs, type LoadedCommand } from "./command.js";

/**
 * Every command, declared once as data: its flags with their descriptions, its positionals, its
 * exit codes, and a lazy `load` of the code that runs it. `--help`, docs/cli.md's flag tables and
 * shell completion are generated from these declarations; nothing here imports a command's code.
 */

const PUBLISH_FLAGS = {
  expires: { type: "string", value: "D", description: "How long the link lives: 30m, 12h, 7d, 1w (server default 7d; 5m to 30d)." },
  "max-views": { type: "string", value: "N", description: `Views allowed, 1 to ${MAX_VIEWS_LIMIT} (default: unlimited until expiry).` },
  scope: { type: "string", value: "S", choices: ["link", "team"], description: "link (anyone with the URL, the default) or team (your team's tokens only)." },
  server: { type: "string", value: "URL", description: "Publishing server (else HANDOFF_SERVER, else the config file's default server); tokens go only to the server they are bound to." },
} as const satisfies FlagSpecs;

const NO_REDACT = { type: "boolean", description: "Do not replace secrets by [REDACTED:<rule>] (prints a warning)." } as const;

const SERVER_ENV = `Environment: HANDOFF_SERVER, HANDOFF_TOKEN, HANDOFF_TEAM_TOKEN (over the config file; the tokens
are bound to HANDOFF_SERVER and unused without it: a token is only ever sent to its own server);
HANDOFF_HTTP_TIMEOUT_MS overrides how long to wait for the server (default 20000 to publish,
15000 to read, revoke or list).`;

export const createSpec = defineCommand({
  name: "create",
  summary: "Write a handoff (also bare 'handoff' with a body on stdin).",
  args: "[FOCUS...]",
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  description: `Write one immutable ce-handoff/v1 Markdown handoff and print how to resume from it.
FOCUS words become resume_focus, the objective for the next session.
Body (required, never empty): --body-file F, or stdin when it is not a terminal.`,
  flags: {
    "body-file": { type: "string", value: "F", description: "Read the body from F ('-' for stdin)." },
    title: { type: "string", value: "T", description: "Title (default: the body's leading heading or first sentence)." },
    summary: { type: "string", value: "S", description: "One distinguishing sentence (default: the body's first sentence)." },
    keyword: { type: "string", value: "K", multiple: true, description: "A discovery keyword; repeat for more." },
    to: { type: "string", value: "PATH", description: "Write to this file, or into this existing folder (a trailing / means a folder), instead of the managed store; an existing file is never overwritten (-2, -3, ...)." },
    format: { type: "string", value: "F", choices: ["ce", "kernel"], description: "ce (Markdown, the default) or kernel (a kernel.handoff/v1 JSON manifest in _meta/handoffs/; the body is a partial manifest in JSON; keys the schema does not know are refused, as kernel's reference refuses them; validated before it is written)." },
    pin: { type: "string", value: "PATH", multiple: true, description: "With --format kernel: pin a repository file (provenance.artifacts, sha256); repeatable." },
    publish: { type: "boolean", description: "Then publish it, end-to-end encrypted, and print a share URL (the local handoff is kept whatever happens)." },
    ...PUBLISH_FLAGS,
    local: { type: "boolean", description: "Never contact a server (the default without --publish)." },
    "no-redact": NO_REDACT,
  },
  exits: { 0: "written (and published)", 1: "empty or invalid body", 2: "usage", 3: "unreadable body, unsafe store, failed write or publish" },
  notes: `Default destination: /tmp/compound-engineering-$UID/ce-handoff/<repo-namespace>/<slug>.md
(HANDOFF_ROOT overrides the root). Git state is recorded read-only; nothing is committed or stashed.`,
  load: (): Promise<LoadedCommand> => import("./commands/create.js").then((m) => m.command),
});

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
      description: "Read one share URL from stdin instead of the command line, so its #key never shows in the process list (ps): printf '%s' \"$URL\" | handoff resume --url-stdin. Works with --peek.",
    },
    peek: { type: "boolean", description: "With a share URL: show its metadata (expiry, views left, whether it needs a passphrase) without spending a view." },
    passphrase: {
      type: "boolean",
      description: "With a share URL that needs one: read its passphrase from stdin (never argv). On a terminal it is asked for when the server says so.",
    },
    team: {
      type: "boolean",
      description: "Search your team's inbox on the server instead (titles from each entry's card, opened with your team key; no view spent); --team ID resumes that entry without its link.",
    },
  },
  exits: { 0: "shortlist or orientation", 1: "nothing matched, source insufficient, or hard divergence", 2: "usage", 3: "source unreadable (missing, too large, HTTP, link expired or revoked)" },
  load: (): Promise<LoadedCommand> => import("./commands/resume.js").then((m) => m.command),
});

export const showSpec = defineCommand({
  name: "show",
  summary: "Print a handoff's raw document (a path or share URL), no orientation.",
  args: "PATH|URL",
  positionals: { min: 1, max: 1, missing: "a handoff file or share URL" },
  description: `Print the document itself on stdout, as it was written: no orientation, no drift check.
A share URL is fetched (one view), decrypted and verified on this machine.`,
  flags: {},
  exits: { 0: "printed", 2: "usage", 3: "unreadable, too large, or the link cannot be read" },
  load: (): Promise<LoadedCommand> => import("./commands/show.js").then((m) => m.command),
});

export const listSpec = defineCommand({
  name: "list",
  summary: "List the handoffs in the managed store, newest first.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: "List the handoffs in the managed store on this machine, newest first: created, title, path.",
  flags: {},
  exits: { 0: "listed (also when empty)", 3: "the store cannot be read" },
  load: (): Promise<LoadedCommand> => import("./commands/list.js").then((m) => m.command),
});

export const rmSpec = defineCommand({
  name: "rm",
  summary: "Delete handoffs from the managed store.",
  args: "PATH...",
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, missing: "the handoff file(s) to delete" },
  description: `Delete handoffs from the managed store. Only files inside the store that are provably
handoffs (a regular file with ce-handoff/v1 frontmatter, owned by you) are deleted; anything
else is refused and left alone.`,
  flags: {},
  exits: { 0: "deleted", 1: "a file is not a handoff in the managed store (nothing deleted)", 2: "usage", 3: "failed delete" },
  load: (): Promise<LoadedCommand> => import("./commands/rm.js").then((m) => m.command),
});

export const pruneSpec = defineCommand({
  name: "prune",
  summary: "Delete managed-store handoffs older than a duration.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Delete handoffs in the managed store created longer ago than --older-than. Only files that
are provably handoffs (ce-handoff/v1 frontmatter with a created_at) are considered.`,
  flags: {
    "older-than": { type: "string", value: "D", description: "Required: an age like 30d, 12h, 1w." },
    "dry-run": { type: "boolean", description: "List what would be deleted; delete nothing." },
  },
  exits: { 0: "pruned (also when nothing was old enough)", 2: "usage", 3: "failed delete" },
  load: (): Promise<LoadedCommand> => import("./commands/prune.js").then((m) => m.command),
});

export const publishSpec = defineCommand({
  name: "publish",
  summary: "Encrypt and publish a handoff; print an access-limited share URL.",
  args: "FILE",
  positionals: { min: 1, max: 1, missing: "a FILE to publish" },
  description: `Encrypt FILE on this machine (AES-256-GCM, the key goes in the URL's #fragment, which never
reaches the server), send the ciphertext, and print an access-limited share URL. Secrets are
redacted again before anything is sent; if scanning fails, nothing is sent. The local file is
never changed or deleted, whatever happens.`,
  flags: {
    ...PUBLISH_FLAGS,
    "no-redact": { type: "boolean", description: "Send the text without scanning it for secrets (prints a warning)." },
    passphrase: {
      type: "boolean",
      description: "Also require a passphrase to read (asked twice at a prompt, or read from stdin; never argv): the link alone can then neither fetch nor decrypt it. Send it apart from the link.",
    },
  },
  exits: { 0: "published", 1: "empty passphrase, or the two typed differ", 2: "usage or out-of-range option", 3: "not configured, server unreachable, slow, 5xx, 413, refused" },
  notes: SERVER_ENV,
  load: (): Promise<LoadedCommand> => import("./commands/publish.js").then((m) => m.command),
});

export const revokeSpec = defineCommand({
  name: "revoke",
  summary: "Revoke a link you published from this machine (or --all of them).",
  args: "URL|ID",
  positionals: { min: 0, max: 1 },
  description: `Revoke a handoff you published from this machine: every later read of its share link fails as
revoked, and the server deletes the body. Uses the owner token kept (0600) in the config folder.
--all revokes every live link this machine published, reporting each; it asks first on a
terminal, and needs --yes anywhere else.`,
  flags: {
    all: { type: "boolean", description: "Revoke every live link published from this machine, each reported." },
    yes: { type: "boolean", description: "With --all: do not ask for confirmation (needed when stdin is not a terminal)." },
  },
  exits: { 0: "revoked (with --all: each one revoked or already over)", 2: "usage, or --all without --yes off a terminal", 3: "unknown here, server unreachable or refused" },
  load: (): Promise<LoadedCommand> => import("./commands/revoke.js").then((m) => m.command),
});

export const publishedSpec = defineCommand({
  name: "published",
  summary: "List what you published from this machine and its state.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `List the handoffs you published from this machine, newest first, with their state: active
(views left, from the server), exhausted (no views left), expired, revoked, gone (the server no
longer knows it), or unknown (the server could not be asked; the reason is shown). Share keys
are never stored, so the list shows links without their #key.`,
  flags: { offline: { type: "boolean", description: "Do not ask the server: states from local records only (views are not known)." } },
  exits: { 0: "listed" },
  load: (): Promise<LoadedCommand> => import("./commands/published.js").then((m) => m.command),
});

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
  load: (): Promise<LoadedCommand> => import("./commands/team.js").then((m) => m.command),
});

export const validateSpec = defineCommand({
  name: "validate",
  summary: "Check a handoff or kernel document against its contract.",
  args: "FILE",
  positionals: { min: 1, max: 1, missing: "a FILE to check" },
  description: `Check a handoff against its contract: ce-handoff/v1 Markdown (frontmatter and body), or a kernel
JSON document (a .json file, or content starting with '{'): a kernel.handoff/v1 manifest, a
kernel.checkpoint/v1 or a kernel.context-receipt/v1, chosen by its "schema" field. A kernel
document's verdict is kernel's reference validator's (docs/conformance.md); Handoff's own extra
checks are listed as warnings and do not make it invalid.
Each problem is printed as 'json.path: message', e.g. 'frontmatter.created_at: must be ISO-8601 UTC'.`,
  flags: {},
  exits: { 0: "valid (warnings or not)", 1: "invalid", 2: "usage, unreadable or unparseable (validate's own)" },
  load: (): Promise<LoadedCommand> => import("./commands/validate.js").then((m) => m.command),
});

export const renderSpec = defineCommand({
  name: "render",
  summary: "Render a kernel manifest to Markdown (never authoritative).",
  args: "FILE.json",
  positionals: { min: 1, max: 1, missing: "which manifest? pass FILE.json" },
  description: `Render a kernel.handoff/v1 manifest as Markdown for people. The JSON stays the source of
truth: the first line of the output says so. A manifest that does not validate is not
rendered; every problem is listed as 'path: message'.`,
  flags: {
    out: { type: "string", value: "F", description: "Write the Markdown to F instead of stdout. F must not exist yet." },
    force: { type: "boolean", description: "With --out, replace F if it exists." },
  },
  exits: { 0: "rendered", 1: "not a valid kernel manifest (a Markdown handoff is refused by name)", 2: "usage or --out exists", 3: "unreadable file or failed write" },
  load: (): Promise<LoadedCommand> => import("./commands/render.js").then((m) => m.command),
});

export const scanSpec = defineCommand({
  name: "scan",
  summary: "Preview secret redaction: per rule the count and lines, never the secret.",
  args: "FILE|-",
  positionals: { min: 1, max: 1, missing: "a FILE, or - for stdin" },
  description: `Report, per rule, how many secrets a handoff create or publish would redact and on which
lines; never the secrets themselves. FILE must be a regular file of at most 1 MiB.`,
  flags: {},
  exits: { 0: "nothing found", 1: "secrets found", 2: "usage", 3: "unreadable input or the scan could not finish" },
  load: (): Promise<LoadedCommand> => import("./commands/scan.js").then((m) => m.command),
});

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
    activate: { type: "boolean", description: "Arm the context guard with MANIFEST's policy instead of compiling (prints the pointer file's path)." },
    deactivate: { type: "boolean", description: "Disarm the guard (takes no MANIFEST); with --receipt F, merge the ledger into F first." },
  },
  exits: { 0: "compiled (also when optional pieces are missing), activated or deactivated", 1: "invalid manifest, or a required selector missing or invalid", 2: "usage or an output file exists", 3: "unreadable manifest, failed write, or maximum_exceeded (bundle and receipt are still written, as kernel's reference does)" },
  load: (): Promise<LoadedCommand> => import("./commands/context.js").then((m) => m.command),
});

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
  load: (): Promise<LoadedCommand> => import("./commands/guard.js").then((m) => m.command),
});

export const checkpointSpec = defineCommand({
  name: "checkpoint",
  summary: "Write a kernel.checkpoint/v1 of resumed work (provenance, steps).",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Record resumed work as a kernel.checkpoint/v1 (smaller than a handoff: enough to resume after a
context reset): the checkout's provenance (branch, commit, dirty, and dirty_tree_sha256 when
there are uncommitted changes), the steps done with their evidence, the steps pending, and where
the work stands. Validated before it is written; kernel's reference validator accepts it.`,
  flags: {
    from: { type: "string", value: "MANIFEST", description: "The kernel.handoff/v1 being resumed: its goal, its phases (inherited ones count as done, the others as pending) and its context policy carry over." },
    goal: { type: "string", value: "G", description: "The task's goal (default: the --from manifest's objective.goal)." },
    position: { type: "string", value: "P", description: "Required. The exact place in the work (\"routes written, tests not yet\")." },
    next: { type: "string", value: "OP", description: "Required. The literal first action on resume." },
    done: { type: "string", value: "STEP=EVIDENCE", multiple: true, description: "A step finished, with its verification; repeat." },
    pending: { type: "string", value: "STEP", multiple: true, description: "A step still to do; repeat." },
    output: { type: "string", value: "F", multiple: true, description: "A file produced so far; repeat." },
    entrypoint: { type: "string", value: "E", description: "The skill or phase to re-enter." },
    name: { type: "string", value: "N", description: "identity.name (default: the manifest's, else the repository folder)." },
    to: { type: "string", value: "PATH", description: "Write here instead of _meta/checkpoints/<name>-<date>.json (never overwrites)." },
  },
  exits: { 0: "written", 1: "invalid manifest or checkpoint", 2: "usage (no git, missing flag)", 3: "write failed" },
  load: (): Promise<LoadedCommand> => import("./commands/checkpoint.js").then((m) => m.command),
});

export const mcpSpec = defineCommand({
  name: "mcp",
  summary: "Serve Handoff's operations to an agent over MCP (stdio).",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Serve Handoff's operations to an agent over MCP (stdio): create, publish, discover (a shortlist
only, never a selection), orient (from an explicit source), validate, context and checkpoint.
Results are the same objects --json prints; a handoff's own text comes back marked untrusted;
errors carry Handoff's error codes. Runs in the current folder until the client closes stdin.
Claude Code: 'claude mcp add handoff -- handoff mcp', or install the plugin. Other clients:
see docs/agents.md.`,
  flags: {},
  exits: { 0: "the client closed the connection", 2: "usage" },
  load: (): Promise<LoadedCommand> => import("./commands/mcp.js").then((m) => m.command),
});

export const installSkillSpec = defineCommand({
  name: "install-skill",
  summary: "Install the handoff skill for Claude Code or Codex.",
  args: "",
  positionals: { min: 0, max: 0 },
  description: `Install the handoff skill (SKILL.md, references, body template) for an agent and print every
file written. For Claude Code, the plugin (/plugin install handoff) is the fuller way: it also
wires 'handoff mcp' and 'handoff guard'.`,
  flags: {
    agent: { type: "string", value: "A", choices: ["claude-code", "codex"], description: "claude-code (default: into ~/.claude/skills/handoff) or codex (into $CODEX_HOME/skills/handoff, default ~/.codex/skills/handoff)." },
    dir: { type: "string", value: "D", description: "Install into D/handoff instead (D is a skills folder, e.g. .claude/skills)." },
    force: { type: "boolean", description: "Replace files that differ from this version (never done silently)." },
  },
  exits: { 0: "installed", 2: "usage (unknown agent, a different version is there without --force)", 3: "a write failed" },
  load: (): Promise<LoadedCommand> => import("./commands/install-skill.js").then((m) => m.command),
});

export const configSpec = defineCommand({
  name: "config",
  summary: "Read or change the config file: get KEY, set KEY VALUE, path.",
  args: "get KEY | set KEY VALUE | path",
  positionals: { min: 1, max: 3, missing: "get KEY, set KEY VALUE, or path" },
  description: `Read or change $XDG_CONFIG_HOME/handoff/config.json (mode 0600). Keys: server, token,
team_token. 'get' of a token prints whether it is set, never its value.`,
  flags: {},
  exits: { 0: "done", 1: "the key is not set", 2: "usage or unknown key", 3: "the file cannot be read or written" },
  load: (): Promise<LoadedCommand> => import("./commands/config.js").then((m) => m.command),
});

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
  load: (): Promise<LoadedCommand> => import("./commands/completion.js").then((m) => m.command),
});

/** The commands in the order `handoff --help` lists them. */
export const COMMANDS = [
  createSpec,
  resumeSpec,
  showSpec,
  listSpec,
  rmSpec,
  pruneSpec,
  publishSpec,
  revokeSpec,
  publishedSpec,
  teamSpec,
  validateSpec,
  renderSpec,
  scanSpec,
  contextSpec,
  guardSpec,
  checkpointSpec,
  mcpSpec,
  installSkillSpec,
  configSpec,
  completionSpec,
] as const;

/** Flags every command takes. */
export const COMMON_FLAGS = {
  json: { type: "boolean", description: "Print the result object as JSON on stdout." },
  quiet: { type: "boolean", short: "q", description: "Print only the result: no summaries, notes or warnings on stderr (errors still)." },
  verbose: { type: "boolean", description: "Show internal causes of errors." },
  help: { type: "boolean", short: "h", description: "Show this help." },
} as const satisfies FlagSpecs;

export const VERSION = "0.1.0";
