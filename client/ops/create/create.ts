import { lstatSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { type ChangesSummary, encodeChanges, summarizeChanges } from "../../../shared/changes/bundle.js";
import { continuityWarnings } from "../../../shared/ce/continuity.js";
import type { DocumentLabel } from "../../../shared/document/sniff.js";
import { CE_CONTRACT, type CeFields, FRONTMATTER_MAX_BYTES, MAX_KEYWORDS } from "../../../shared/ce/contract.js";
import { deriveSummary, deriveTitle, splitLeadingFrontmatter } from "../../../shared/ce/derive.js";
import { resumeCommand } from "../../../shared/ce/resume-command.js";
import { fitFrontmatter } from "../../../shared/ce/fit.js";
import { serializeCeDocument } from "../../../shared/ce/serialize.js";
import { HandoffError } from "../../../shared/errors.js";
import { NOT_REDACTED, RedactionCollector, type RedactionSummary } from "../../../shared/redact/fields.js";
import { GENERAL_NAMESPACE } from "../../../shared/repo/namespace.js";
import { slug } from "../../../shared/text/slug.js";
import { explainSufficiency, judgeSource } from "../../../shared/orient/sufficiency.js";
import type { CapturedChanges } from "../../lib/changes/capture.js";
import { dirtyTreeSha256, type GitCapture } from "../../lib/git.js";
import { chosenDestination, ensureHandoffDir, managedRoots, openManagedRoot, writeExclusive } from "../../lib/store.js";
import { oversizedError } from "./size.js";
import { ceTimestamp } from "../../../shared/time/timestamps.js";
import type { Env } from "../../platform/env.js";

export interface CreateOptions {
  body: string;
  title?: string;
  summary?: string;
  keywords: string[];
  focus?: string;
  /** A file or an existing folder chosen by the user; relative to `cwd`. */
  to?: string;
  cwd: string;
  env: Env;
  /** False only for an explicit --no-redact. */
  redact?: boolean;
  /** Write a body resume would call insufficient (else it is refused and nothing is written). */
  allowInsufficient?: boolean;
  /** --with-changes: capture the uncommitted work as a bundle beside the handoff. */
  withChanges?: boolean;
  /**
   * With withChanges: why a path (absolute) may not travel, when it may not (the guard's decision
   * under a sealed manifest, which the front end passes): such a file is left out and named.
   */
  excluded?: (path: string) => string | undefined;
  /** --allow-unscanned: the bundle may carry files the secret scan cannot read (else they are refused). */
  allowUnscanned?: boolean;
}

export interface CreateDeps {
  now(): Date;
  captureGit(cwd: string, env: Env): Promise<GitCapture | undefined>;
}

/** What a create wrote: the result people and --json see, and the document itself for publishing. */
export interface Created<R> {
  result: R;
  document: string;
  label: DocumentLabel;
  /** The changes bundle's bytes, when --with-changes captured one (also written beside the handoff). */
  changes?: Uint8Array;
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
  /** --with-changes: the bundle written beside the handoff (0600) and what it holds. */
  changes?: { path: string } & ChangesSummary;
}

export const NOT_REDACTED_WARNING: CreateWarning = {
  code: "not_redacted",
  message: "--no-redact: written without scanning for secrets; check it before you share it",
};

/** Says where the managed store is and whether the OS may clear it (a root under /tmp or TMPDIR). */
export function managedRetention(root: string, env: Env): string {
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
export async function createHandoff(options: CreateOptions, deps: CreateDeps): Promise<Created<CreateResult>> {
  if (options.body.trim() === "") {
    throw new HandoffError("empty_input", "the handoff body is empty", {
      hint: "write the session's context (objective, state, next steps) to a file and pass --body-file F, or pipe it on stdin",
    });
  }
  if (options.keywords.length > MAX_KEYWORDS) {
    throw new HandoffError("too_large", `${options.keywords.length} keywords given; a handoff takes at most ${MAX_KEYWORDS}`, {
      hint: `discovery reads only the first ${FRONTMATTER_MAX_BYTES / 1024} KiB of frontmatter, so more keywords could never be found: pass the few words someone would search for`,
      details: { keywords: options.keywords.length, max: MAX_KEYWORDS },
    });
  }
  // Before git is asked anything: a body resume could never read is refused at once.
  const oversizedBody = oversizedError(new TextEncoder().encode(options.body).length, "body");
  if (oversizedBody) throw oversizedBody;
  const git = await deps.captureGit(options.cwd, options.env);
  // Captured (and scanned) before anything is written: over a cap, nothing is.
  const bundle = options.withChanges ? await changesOf(git, options.env, options.excluded, options.allowUnscanned === true) : undefined;
  // Secrets go before anything else reads the text: titles and summaries derive from the clean body.
  const redactor = options.redact === false ? undefined : new RedactionCollector();
  const clean = (field: string, value: string) => (redactor ? redactor.text(field, value) : value);
  const { body, title, summary, keywords, notes } = describeBody(options, clean);

  const metadata: CeFields = {
    artifact_contract: CE_CONTRACT,
    created_at: ceTimestamp(deps.now()),
    title,
    summary,
    keywords: keywords.map((keyword, i) => clean(`keywords[${i}]`, keyword)),
    cwd: options.cwd,
  };
  if (options.focus) metadata.resume_focus = clean("resume_focus", options.focus);
  if (git) Object.assign(metadata, gitFields(git));
  // The capture-time dirty fact, so resume can report dirty_changed for the handoffs we write.
  if (git?.head) {
    metadata.dirty = git.dirty > 0;
    if (git.dirty > 0) metadata.dirty_tree_sha256 = await dirtyTreeSha256(git.toplevel, options.env);
  }

  const warnings: CreateWarning[] = [];
  if (!redactor) warnings.push(NOT_REDACTED_WARNING);
  // The same verdict resume will give, told to the agent that can still fix it, before anything
  // is written. Only a body that says next to nothing is refused (a refused body leaves no file,
  // so the retry is the only handoff); a thin one is written with a warning, never lost.
  // Built from the values in hand (no re-parse of the document, no YAML library loaded).
  const { sufficiency } = judgeSource({ format: CE_CONTRACT, body, metadata: { ...metadata } });
  const explained = explainSufficiency(sufficiency);
  const what = [...explained.missing, ...explained.thin].join("; ");
  if (sufficiency.verdict === "insufficient") {
    if (!options.allowInsufficient) {
      throw new HandoffError("insufficient", `resume would call this handoff insufficient: ${what}; nothing was written`, {
        hint: "say in the body what the work is for and where it stands (for example 'Goal: ...' and 'Status: ...' or 'Next: ...') and run handoff create again, or pass --allow-insufficient to write it anyway",
        details: { missing: sufficiency.missing, thin: sufficiency.thin, empty: sufficiency.empty },
      });
    }
    warnings.push({ code: "insufficient", message: `resume will call this handoff insufficient: ${what}; written anyway (--allow-insufficient)` });
  } else if (sufficiency.verdict === "unsure") {
    const resume = sufficiency.sufficient ? "resume will orient from it with the same warning" : "resume will stop on it and ask for what is missing";
    warnings.push({ code: "unsure", message: `written, but it looks thin: ${what}; ${resume}. Add it and create the handoff again to leave a fuller one` });
  }
  const target: Target = options.to === undefined ? managedTarget(options.env, git, title, warnings) : chosenDestination(options.cwd, options.to, slug(title), ".md");
  // The bundle goes beside the handoff, 0600, and the handoff names it (a bare file name).
  // The two share a stem, chosen where both names are free (writeExclusive's companions).
  const bundleBytes = bundle ? encodeChanges(bundle) : undefined;
  const bundlePath = bundleBytes ? writeExclusive(target.dir, target.stem, ".changes", bundleBytes, [target.ext]).path : undefined;
  if (bundlePath) metadata.changes = basename(bundlePath);

  // The receiver cannot see the sender's uncommitted work: the handoff says it existed.
  // Discovery reads only the first 64 lines / 16 KiB: what create writes must stay indexable.
  const fitted = fitFrontmatter(metadata);
  const document = serializeCeDocument(fitted.fields, git && git.dirty > 0 ? `${body.replace(/\s+$/, "")}\n\n${uncommittedNote(git, bundle !== undefined)}\n` : body);
  const bytes = new TextEncoder().encode(document);
  // Too large for resume and validate once its frontmatter is added: refused, the bundle removed.
  const oversized = oversizedError(bytes.length, "handoff");
  if (oversized) {
    if (bundlePath) rmSync(bundlePath, { force: true });
    throw oversized;
  }
  if (fitted.shortened.length > 0) {
    warnings.push({ code: "frontmatter_shortened", message: `shortened ${fitted.shortened.join(" and ")} so the frontmatter stays within the 16 KiB discovery reads; the body keeps everything` });
  }
  let written: ReturnType<typeof writeExclusive>;
  try {
    written = bundlePath ? writeExclusive(target.dir, basename(bundlePath, ".changes"), target.ext, bytes) : writeExclusive(target.dir, target.stem, target.ext, bytes, [".changes"]);
  } catch (error) {
    if (bundlePath) rmSync(bundlePath, { force: true });
    throw error;
  }
  const firstChoice = join(target.dir, `${target.stem}${target.ext}`);
  if (written.path !== firstChoice && options.to !== undefined) {
    const taken = lstatSync(firstChoice, { throwIfNoEntry: false }) !== undefined ? firstChoice : join(target.dir, `${target.stem}.changes`);
    warnings.push({ code: "name_taken", message: `${taken} already exists: wrote ${written.path} instead (nothing is overwritten)` });
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
  if (bundle && bundlePath) {
    result.changes = { path: bundlePath, ...summarizeChanges(bundle) };
    for (const file of bundle.manifest.left_out) warnings.push({ code: "changes_left_out", message: `--with-changes left ${file.path} out: ${file.reason}` });
    for (const file of bundle.unscanned) warnings.push({ code: "changes_unscanned", message: `--allow-unscanned: ${file.path} travels without a full secret scan (${file.what})` });
  }
  return { result, document, label: { format: CE_CONTRACT, title, created_at: metadata.created_at }, ...(bundleBytes ? { changes: bundleBytes } : {}) };
}

/**
 * Title, summary and keywords: the flags, else the body's own frontmatter (a body that has one
 * gets one block, not two), else derived from the body; each default is said in a note.
 */
function describeBody(options: CreateOptions, clean: (field: string, value: string) => string) {
  const notes: string[] = [];
  const own = splitLeadingFrontmatter(options.body);
  if (own) notes.push("the body's own frontmatter block was folded into the handoff's (one block, not two)");
  const ownText = (key: string) => (typeof own?.data?.[key] === "string" && String(own.data[key]).trim() !== "" ? String(own.data[key]) : undefined);
  const body = clean("body", own ? own.rest : options.body);
  const givenTitle = options.title ?? ownText("title");
  const title = givenTitle !== undefined ? clean("title", givenTitle) : (deriveTitle(body) ?? "Untitled handoff");
  if (givenTitle === undefined) notes.push(`title "${title}" taken from the body; pass --title to choose it`);
  const givenSummary = options.summary ?? ownText("summary");
  const summary = givenSummary !== undefined ? clean("summary", givenSummary) : (deriveSummary(body) ?? title);
  if (givenSummary === undefined) notes.push("summary taken from the body's first sentence; pass --summary to choose it");
  const ownKeywords = Array.isArray(own?.data?.keywords) ? (own.data.keywords as unknown[]).filter((k): k is string => typeof k === "string" && k.trim() !== "") : [];
  const keywords = [...new Set([...options.keywords, ...ownKeywords])];
  if (keywords.length === 0) notes.push("no keywords: pass --keyword K to help discovery find this handoff");
  return { body, title, summary, keywords, notes };
}

/** The contract's git fields, present only when they apply. */
function gitFields(git: GitCapture): Partial<CeFields> {
  const fields: Partial<CeFields> = { repository: git.repository };
  if (git.repo_root_sha) fields.repo_root_sha = git.repo_root_sha;
  if (git.branch) fields.branch = git.branch;
  if (git.head) fields.head = git.head;
  if (git.worktree_path) fields.worktree_path = git.worktree_path;
  return fields;
}

/** A closing section for a handoff written from a dirty checkout. */
function uncommittedNote(git: GitCapture, bundled: boolean): string {
  const count = `${git.dirty} uncommitted change${git.dirty === 1 ? "" : "s"}`;
  const where = git.branch ? `on branch ${git.branch}` : "on a detached HEAD";
  const travel = bundled
    ? "They travel with this handoff as a changes bundle: resume with --apply-changes to apply them (never done without being asked)."
    : "They are not in git history: another checkout has them only if they were committed and pushed since.";
  return `## Uncommitted changes at capture\n\nThe sender's checkout had ${count} ${where} when this handoff was written. ${travel}`;
}

/** --with-changes needs a checkout with a commit to capture the changes against. */
async function changesOf(git: GitCapture | undefined, env: Env, excluded: ((path: string) => string | undefined) | undefined, allowUnscanned: boolean): Promise<CapturedChanges> {
  if (!git?.head) {
    throw new HandoffError("usage", "--with-changes captures the uncommitted work of a git checkout, and this folder is not one with a commit", {
      hint: "run it in the checkout, or leave out --with-changes",
    });
  }
  const { captureChanges } = await import("../../lib/changes/capture.js");
  return captureChanges(git.toplevel, env, excluded, { allowUnscanned });
}

interface Target {
  dir: string;
  stem: string;
  ext: string;
  /** The managed root, when the target is in the managed store. */
  root?: string;
}

function managedTarget(env: Env, git: GitCapture | undefined, title: string, warnings: CreateWarning[]): Target {
  const { root, warnings: rootWarnings } = openManagedRoot(managedRoots(env));
  for (const message of rootWarnings) warnings.push({ code: "fallback_store", message });
  return { dir: ensureHandoffDir(root, git?.namespace ?? GENERAL_NAMESPACE), stem: slug(title), ext: ".md", root };
}
