import { homedir } from "node:os";
import { resolve } from "node:path";
import { continuityWarnings } from "../../shared/ce/continuity.js";
import { CE_CONTRACT, type CeFields } from "../../shared/ce/contract.js";
import { deriveSummary, deriveTitle } from "../../shared/ce/derive.js";
import { resumeCommand } from "../../shared/ce/resume-command.js";
import { fitFrontmatter } from "../../shared/ce/fit.js";
import { serializeCeDocument } from "../../shared/ce/serialize.js";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { NOT_REDACTED, RedactionCollector, type RedactionSummary } from "../../shared/redact/fields.js";
import { GENERAL_NAMESPACE } from "../../shared/namespace.js";
import { slug } from "../../shared/slug.js";
import { parseCommandArgs } from "../args.js";
import { PUBLISH_FLAGS, PUBLISH_FLAGS_HELP, type PublishFlagValues, readPublishFlags } from "../publish/flags.js";
import { type GitCapture, captureGit } from "../git.js";
import { type Io, readStdin } from "../io.js";
import { fencedCommand, formatCreateReport, formatKernelReport } from "../output.js";
import { chosenDestination, ensureHandoffDir, managedRoots, openManagedRoot, writeExclusive } from "../store.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../read-file.js";
import { stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff create [FOCUS...] [options]
       handoff [FOCUS...] [options]

Write one immutable ce-handoff/v1 Markdown handoff and print how to resume from it.
FOCUS words become resume_focus, the objective for the next session.

Body (required, never empty): --body-file F, or stdin when it is not a terminal.

Options:
  --body-file F    Read the body from F ('-' for stdin).
  --title T        Title (default: the body's leading heading or first sentence).
  --summary S      One distinguishing sentence (default: the body's first sentence).
  --keyword K      A discovery keyword; repeat for more.
  --to PATH        Write to this file, or into this existing folder, instead of the managed
                   store (no managed copy; an existing file is never overwritten: -2, -3, ...).
  --format F       ce (Markdown with ce-handoff/v1 frontmatter, the default) or kernel (a
                   kernel.handoff/v1 JSON manifest at _meta/handoffs/<name>-<date>.json in the
                   repository; the body is a partial manifest in JSON; validated before writing).
  --pin PATH       With --format kernel: pin a repository file (provenance.artifacts, sha256).
  --publish        Then publish it, end-to-end encrypted, and print an access-limited share URL
                   (the local handoff is kept whatever happens). With:
${PUBLISH_FLAGS_HELP}
  --local          Never contact a server (the default without --publish).
  --no-redact      Do not replace secrets by [REDACTED:<rule>] (prints a warning). By default
                   every secret found is replaced before anything is written.
  --json           Print {path, format, metadata, warnings, resume_command} on stdout.

Default destination: /tmp/compound-engineering-$UID/ce-handoff/<repo-namespace>/<slug>.md
(HANDOFF_ROOT overrides the root). Git state is recorded read-only; nothing is committed or stashed.
`;

/** Bodies are documents a person could read in one sitting; anything bigger is a mistake. */
export const BODY_LIMIT = 1024 * 1024;

export interface CreateOptions {
  body: string;
  title?: string;
  summary?: string;
  keywords: string[];
  focus?: string;
  /** A file or an existing folder chosen by the user; relative to `cwd`. */
  to?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** False only for an explicit --no-redact. */
  redact?: boolean;
}

export interface CreateDeps {
  now(): Date;
  captureGit(cwd: string, env: NodeJS.ProcessEnv): Promise<GitCapture | undefined>;
}

export interface CreateWarning {
  code: string;
  message: string;
}

export interface CreateResult {
  path: string;
  format: typeof CE_CONTRACT;
  metadata: CeFields;
  warnings: CreateWarning[];
  resume_command: string;
  destination: "managed" | "chosen";
  retention: string;
  /** What was filled in for the user (derived title, summary). */
  notes: string[];
  /** Secrets replaced by [REDACTED:<rule>] before anything was written: counts and places, never values. */
  redaction: RedactionSummary;
  git?: Pick<GitCapture, "branch" | "head" | "detached" | "dirty" | "upstream" | "ahead" | "namespace">;
}

export const NOT_REDACTED_WARNING: CreateWarning = {
  code: "not_redacted",
  message: "--no-redact: written without scanning for secrets; check it before you share it",
};

/** Says where the managed store is and whether the OS may clear it (a root under /tmp or TMPDIR). */
export function managedRetention(root: string, env: NodeJS.ProcessEnv): string {
  const temporary = [`/tmp`, env.TMPDIR].some((dir) => dir && (root === dir || root.startsWith(`${dir.replace(/\/+$/, "")}/`)));
  return temporary
    ? `the managed store lives in ${root}, a temporary folder: the OS may delete it; publish or copy it to keep it`
    : `the managed store lives in ${root}; nothing here deletes it, but it is on this machine only: publish or copy it to share it`;
}
export const CHOSEN_RETENTION = "written where you chose; Handoff keeps no other copy";

/**
 * Writes a handoff and returns what was written. Reads the git state, never changes it.
 *
 * @example
 * ```ts
 * const result = await createHandoff({ body: "# Auth\n\nHalf done.", keywords: [], cwd, env }, { now: () => new Date(), captureGit });
 * result.resume_command // "handoff resume '/tmp/compound-engineering-1000/ce-handoff/general/auth.md'"
 * ```
 */
export async function createHandoff(options: CreateOptions, deps: CreateDeps): Promise<CreateResult> {
  if (options.body.trim() === "") {
    throw new HandoffError("empty_input", "the handoff body is empty", {
      hint: "write the session's context (objective, state, next steps) to a file and pass --body-file F, or pipe it on stdin",
    });
  }
  const git = await deps.captureGit(options.cwd, options.env);
  // Secrets go before anything else reads the text: titles and summaries derive from the clean body.
  const redactor = options.redact === false ? undefined : new RedactionCollector();
  const clean = (field: string, value: string) => (redactor ? redactor.text(field, value) : value);
  const body = clean("body", options.body);
  const notes: string[] = [];
  const title = options.title !== undefined ? clean("title", options.title) : (deriveTitle(body) ?? "Untitled handoff");
  if (options.title === undefined) notes.push(`title "${title}" taken from the body; pass --title to choose it`);
  const summary = options.summary !== undefined ? clean("summary", options.summary) : (deriveSummary(body) ?? title);
  if (options.summary === undefined) notes.push("summary taken from the body's first sentence; pass --summary to choose it");
  if (options.keywords.length === 0) notes.push("no keywords: pass --keyword K to help discovery find this handoff");

  const metadata: CeFields = {
    artifact_contract: CE_CONTRACT,
    created_at: deps.now().toISOString(),
    title,
    summary,
    keywords: options.keywords.map((keyword, i) => clean(`keywords[${i}]`, keyword)),
    cwd: options.cwd,
  };
  if (options.focus) metadata.resume_focus = clean("resume_focus", options.focus);
  if (git) {
    metadata.repository = git.repository;
    if (git.repo_root_sha) metadata.repo_root_sha = git.repo_root_sha;
    if (git.branch) metadata.branch = git.branch;
    if (git.head) metadata.head = git.head;
    if (git.worktree_path) metadata.worktree_path = git.worktree_path;
  }

  // Discovery reads only the first 64 lines / 16 KiB: what create writes must stay indexable.
  const fitted = fitFrontmatter(metadata);
  const bytes = new TextEncoder().encode(serializeCeDocument(fitted.fields, body));

  const warnings: CreateWarning[] = [];
  if (fitted.shortened.length > 0) {
    warnings.push({ code: "frontmatter_shortened", message: `shortened ${fitted.shortened.join(" and ")} so the frontmatter stays within the 16 KiB discovery reads; the body keeps everything` });
  }
  if (!redactor) warnings.push(NOT_REDACTED_WARNING);
  const target: Target = options.to === undefined ? managedTarget(options.env, git, title, warnings) : chosenDestination(resolve(options.cwd, options.to), slug(title), ".md");
  const written = writeExclusive(target.dir, target.stem, target.ext, bytes);
  if (written.takenName && options.to !== undefined) {
    warnings.push({ code: "name_taken", message: `${written.takenName} already exists: wrote ${written.path} instead (nothing is overwritten)` });
  }
  const localRoots = [git?.toplevel, options.cwd].filter((p): p is string => p !== undefined && p !== "/");
  warnings.push(...continuityWarnings({ git, body, localRoots }));

  const result: CreateResult = {
    path: written.path,
    format: CE_CONTRACT,
    metadata: fitted.fields,
    warnings,
    resume_command: resumeCommand(written.path),
    destination: options.to === undefined ? "managed" : "chosen",
    retention: target.root === undefined ? CHOSEN_RETENTION : managedRetention(target.root, options.env),
    notes,
    redaction: redactor ? redactor.summary() : NOT_REDACTED,
  };
  if (git) {
    const { branch, head, detached, dirty, upstream, ahead, namespace } = git;
    result.git = { branch, head, detached, dirty, upstream, ahead, namespace };
  }
  return result;
}

interface Target {
  dir: string;
  stem: string;
  ext: string;
  /** The managed root, when the target is in the managed store. */
  root?: string;
}

function managedTarget(env: NodeJS.ProcessEnv, git: GitCapture | undefined, title: string, warnings: CreateWarning[]): Target {
  const { root, warnings: rootWarnings } = openManagedRoot(managedRoots(env));
  for (const message of rootWarnings) warnings.push({ code: "fallback_store", message });
  return { dir: ensureHandoffDir(root, git?.namespace ?? GENERAL_NAMESPACE), stem: slug(title), ext: ".md", root };
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("create", args, {
    "body-file": { type: "string" },
    title: { type: "string" },
    summary: { type: "string" },
    keyword: { type: "string", multiple: true },
    to: { type: "string" },
    format: { type: "string" },
    pin: { type: "string", multiple: true },
    local: { type: "boolean" },
    "no-redact": { type: "boolean" },
    publish: { type: "boolean" },
    ...PUBLISH_FLAGS,
  });
  if (values.publish && values.local) {
    throw new HandoffError("usage", "--publish and --local contradict each other", { hint: "--local never contacts a server; drop one of them" });
  }
  const publishFlags = values.publish ? readPublishFlags(values) : undefined;
  // Loaded while git is being asked (this process is idle then), not after the handoff is written.
  if (publishFlags) loadPublishing().catch(() => undefined);
  if (!values.publish && (values.expires ?? values["max-views"] ?? values.scope ?? values.server) !== undefined) {
    throw new HandoffError("usage", "--expires, --max-views, --scope and --server go with --publish", { hint: "add --publish, or drop them" });
  }
  const format = values.format ?? "ce";
  if (format !== "ce" && format !== "kernel") {
    throw new HandoffError("usage", `--format ${format} is not a handoff format`, { hint: "pass --format ce (Markdown, the default) or --format kernel (JSON manifest)" });
  }
  if (format === "ce" && values.pin !== undefined) {
    throw new HandoffError("usage", "--pin goes with --format kernel", { hint: "add --format kernel, or drop --pin" });
  }
  const body = await readBody(values["body-file"], io);
  if (format === "kernel") {
    const { createKernelHandoff } = await import("./create-kernel.js");
    const result = await createKernelHandoff(
      {
        partialText: body,
        name: nonEmptyFlag("title", values.title),
        pins: values.pin ?? [],
        to: values.to,
        cwd: io.cwd,
        env: io.env,
        redact: !values["no-redact"],
      },
      { now: () => new Date(), captureGit },
    );
    return finishCreate(result, formatKernelReport(result, { closing: !publishFlags }), publishFlags, values, io);
  }
  const result = await createHandoff(
    {
      body,
      title: nonEmptyFlag("title", values.title),
      summary: nonEmptyFlag("summary", values.summary),
      keywords: [...new Set((values.keyword ?? []).map((k) => k.trim()).filter((k) => k !== ""))],
      focus: positionals.join(" ").trim() || undefined,
      to: values.to,
      cwd: io.cwd,
      env: io.env,
      redact: !values["no-redact"],
    },
    { now: () => new Date(), captureGit },
  );
  return finishCreate(result, formatCreateReport(result, { closing: !publishFlags }), publishFlags, values, io);
}

/** Both formats end alike: the report on stderr, then publish, or the result / fenced command on stdout. */
async function finishCreate(
  result: { path: string; warnings: CreateWarning[]; resume_command: string },
  report: string,
  publishFlags: PublishFlagValues | undefined,
  values: { json?: boolean; "no-redact"?: boolean },
  io: Io,
): Promise<number> {
  io.err(report);
  if (publishFlags) return publishCreated(result, publishFlags, !values["no-redact"], Boolean(values.json), io);
  io.out(values.json ? stringifyForTerminal(result) : fencedCommand(result.resume_command));
  return EXIT.ok;
}

/**
 * `create --publish`: the local handoff is written first and stays whatever happens; then it is
 * published like `handoff publish` would. A failed publish is exit 3 naming the kept file.
 */
let publishing: Promise<[typeof import("../publish/publish-file.js"), typeof import("../publish/report.js")]> | undefined;

function loadPublishing() {
  publishing ??= Promise.all([import("../publish/publish-file.js"), import("../publish/report.js")]);
  return publishing;
}

async function publishCreated(
  created: { path: string; warnings: CreateWarning[]; resume_command: string },
  flags: PublishFlagValues,
  redact: boolean,
  json: boolean,
  io: Io,
): Promise<number> {
  const [{ publishFile }, { formatPublishReport, publishStdout }] = await loadPublishing();
  const published = await publishFile({ path: created.path, ...flags, redact, env: io.env, home: io.env.HOME ?? homedir() });
  io.err("");
  io.err(formatPublishReport(published));
  if (json) {
    const merged = { ...created, ...published, warnings: [...created.warnings.map((w) => w.message), ...published.warnings], local_resume_command: created.resume_command };
    io.out(stringifyForTerminal(merged));
  } else {
    io.out(publishStdout(published, false));
  }
  return EXIT.ok;
}

function nonEmptyFlag(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === "") {
    throw new HandoffError("usage", `--${name} is empty`, { hint: `pass a non-empty --${name}, or leave it out to derive it from the body` });
  }
  return value;
}

async function readBody(file: string | undefined, io: Io): Promise<string> {
  if (file === undefined && io.stdinIsTTY) {
    throw new HandoffError("empty_input", "no handoff body given", {
      hint: "pass --body-file F, or pipe the body on stdin: handoff create < notes.md",
    });
  }
  const bytes = file === undefined || file === "-" ? await readStdin(io, BODY_LIMIT) : readRegularFile(resolve(io.cwd, file), BODY_LIMIT, { what: "--body-file", label: `--body-file ${file}` });
  if (bytes === "too_large") {
    throw tooLarge(file ?? "stdin", BODY_LIMIT, "point at plans, diffs and files instead of pasting them: a handoff is a pointer-first summary");
  }
  return decodeUtf8(bytes, `the body in ${file ?? "stdin"}`);
}

