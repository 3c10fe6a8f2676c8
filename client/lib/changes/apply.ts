import { lstatSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangesBundle } from "../../../shared/changes/bundle.js";
import { type PlannedChange, planChanges } from "../../../shared/changes/plan.js";
import { HandoffError } from "../../../shared/errors.js";
import type { Env } from "../../platform/env.js";
import { GIT_APPLY_CONFIG, GIT_APPLY_ENV, type GitRun, runGit } from "../../platform/git.js";
import { workTreeRoot } from "../../platform/work-tree.js";
import { containmentProblem, mergeDriverProblem } from "./receiver.js";

/**
 * `resume --apply-changes`: puts a changes bundle into this checkout, only when asked, and only
 * where it lands whole. Everything is checked first, and nothing is written until every check
 * passed:
 * - the bundle against its own manifest (shared/changes/plan.ts: git's path rules, listed files
 *   and modes only, links inside the tree, the receiver's size cap);
 * - every path against this checkout: never through a symbolic link, into a nested repository or
 *   a submodule (receiver.ts);
 * - the checkout has no uncommitted tracked changes, and no file the bundle creates exists;
 * - HEAD is the bundle's recorded commit (`git apply --index`), or a descendant of it
 *   (`git apply --3way`, rehearsed first on a temporary index, so a conflict is reported with its
 *   paths and the checkout is left untouched; refused where a merge driver would run);
 * - a flagged file (what tools obey or run) needs `allowFlagged`.
 * Untracked files travel as new-file sections of the same patch: git writes everything, through
 * the one git runner, with the apply-safe settings (platform/git.ts), so no program the
 * repository configures runs. `dryRun` stops before the write and returns the preview.
 */

export interface ApplyOptions {
  /** Check everything and return the preview; write nothing. */
  dryRun?: boolean;
  /** Apply flagged files too (executable, links, dotfiles tools read, hooks). */
  allowFlagged?: boolean;
  /** Known already to stop the apply (the checkout's drift against the bundle's commit): a dry run still previews. */
  blocked?: { message: string; hint?: string };
}

export interface ChangesPreview {
  /** "at_base": HEAD is the recorded commit; "three_way": a descendant, merged with git apply --3way; absent when blocked. */
  mode?: "at_base" | "three_way";
  base: string;
  head: string;
  /** Every file, with its change, modes, size and flags. */
  files: PlannedChange[];
  /** Bytes applying writes or inflates, against the receiver's cap. */
  expanded_bytes: number;
  /** The paths with flags: applying them needs --allow-flagged. */
  flagged: string[];
  /** Named by the sender as not captured (a secret, too large): not here either. */
  left_out: { path: string; reason: string }[];
  /** A dry run: whether applying would go ahead now, and if not, why and what to do first. */
  ready?: boolean;
  blocked?: { message: string; hint?: string };
}

export interface AppliedChanges extends ChangesPreview {
  mode: "at_base" | "three_way";
  tracked: string[];
  untracked: string[];
}

export async function applyChanges(bundle: ChangesBundle, cwd: string, env: Env, options: ApplyOptions = {}): Promise<{ preview: ChangesPreview } | { applied: AppliedChanges }> {
  const toplevel = workTreeRoot(cwd, env);
  if (toplevel === undefined) throw refuse("this folder is not inside a git repository", "run it in the checkout the handoff is about");
  const applyEnv = { ...env, ...GIT_APPLY_ENV };
  const git: Git = (args, extraEnv = {}) => runGit(args, { cwd: toplevel, env: { ...applyEnv, ...extraEnv } });
  const hooksPath = (await git(["config", "--get", "core.hooksPath"])).stdout.trim();
  const plan = await planChanges(bundle, hooksPath ? { hooksPath } : {});
  if (!plan.ok) throw plan.error;
  const files = plan.value.changes;
  const base = bundle.manifest.base.head;
  const draft: ChangesPreview = {
    base,
    head: (await git(["rev-parse", "--verify", "HEAD"])).stdout.trim(),
    files,
    expanded_bytes: plan.value.expanded_bytes,
    flagged: files.filter((f) => f.flags.length > 0).map((f) => f.path),
    left_out: bundle.manifest.left_out,
  };
  const scratch = mkdtempSync(join(tmpdir(), "handoff-apply-"));
  try {
    if (options.blocked) throw new HandoffError("diverged", options.blocked.message, options.blocked.hint ? { hint: options.blocked.hint } : {});
    const mode = await receive(toplevel, draft, plan.value.patch, scratch, git, applyEnv);
    if (options.dryRun) return { preview: { ...draft, mode, ready: true } };
    if (draft.flagged.length > 0 && !options.allowFlagged) {
      throw refuse(
        `the bundle changes files that tools obey or run (${list(draft.flagged)})`,
        "look at them first (--dry-run lists every file and why it is flagged), then apply with --allow-flagged",
        {
          flagged: draft.flagged,
        },
      );
    }
    if (plan.value.patch.length > 0) {
      const run = await git([...GIT_APPLY_CONFIG, "apply", ...(mode === "at_base" ? ["--index"] : ["--3way"]), "--binary", join(scratch, "changes.patch")]);
      if (run.code !== 0) throw new HandoffError("io_failed", `git apply failed after its check passed: ${run.failure ?? "unknown"}`, { hint: "check the checkout (git status) and retry" });
    }
    return { applied: { ...draft, mode, tracked: files.filter((f) => !f.untracked).map((f) => f.path), untracked: files.filter((f) => f.untracked).map((f) => f.path) } };
  } catch (error) {
    // A dry run previews whatever stops the apply: the files are listed with what to do first.
    if (!options.dryRun || !(error instanceof HandoffError) || error.reason !== "diverged") throw error;
    return { preview: { ...draft, ready: false, blocked: { message: error.message, ...(error.hint ? { hint: error.hint } : {}) } } };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

type Git = (args: string[], extraEnv?: Record<string, string>) => Promise<GitRun<string>>;

/**
 * Every check this checkout makes before the write, then the rehearsal of the apply itself
 * (`git apply --check`, or the three-way apply on a temporary index): how it would apply, or a
 * refusal naming why. Writes only the patch into `scratch` (and, for a three-way rehearsal, the
 * objects git stores), never the checkout or its index.
 */
async function receive(toplevel: string, draft: ChangesPreview, patchBytes: Uint8Array, scratch: string, git: Git, applyEnv: Env): Promise<"at_base" | "three_way"> {
  const { files, base, head } = draft;
  const short = base.slice(0, 12);
  const contained = await containmentProblem(toplevel, files, applyEnv);
  if (contained) throw refuse(`${contained.path} ${contained.why}`, "nothing was applied; this checkout keeps its own layout", { path: contained.path });

  // Submodules are not looked into: their own configuration could name programs of its own.
  const status = await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=all"]);
  if (status.failure !== undefined) throw new HandoffError("io_failed", `git status failed: ${status.failure}`, { hint: "check the repository; nothing was applied" });
  const changed = status.stdout
    .split("\0")
    .filter((e) => e !== "" && !e.startsWith("?? "))
    .map((e) => e.slice(3));
  if (changed.length > 0) {
    throw refuse(`this checkout has uncommitted changes (${list(changed)})`, "commit or stash them first, then apply again (git stash)", { uncommitted: changed });
  }
  // A file the bundle creates must not exist here, tracked or not.
  const collisions = files.filter((f) => f.change === "added" && lstatSync(join(toplevel, f.path), { throwIfNoEntry: false }) !== undefined).map((f) => f.path);
  if (collisions.length > 0) throw refuse(`files the bundle would create already exist here (${list(collisions)})`, "move them away, then apply again", { conflicts: collisions });

  let mode: "at_base" | "three_way";
  if (head === base) mode = "at_base";
  else if ((await git(["cat-file", "-e", `${base}^{commit}`])).code !== 0) {
    throw refuse(`the bundle was captured at commit ${short}, which this clone does not have`, "fetch it (the drift names the command), then apply again");
  } else if ((await git(["merge-base", "--is-ancestor", base, "HEAD"])).code === 0) mode = "three_way";
  else throw refuse(`HEAD ${head.slice(0, 12)} is neither the bundle's commit ${short} nor a descendant of it`, "bring the checkout to that commit (the drift names the command), then apply again");
  if (mode === "three_way") {
    const driver = await mergeDriverProblem(toplevel, files, applyEnv);
    if (driver) throw refuse(driver, `check out ${short} (the commit they were captured at) and apply there: no merge is needed at the recorded commit`);
  }
  if (patchBytes.length === 0) return mode;
  const patch = join(scratch, "changes.patch");
  writeFileSync(patch, patchBytes, { mode: 0o600 });
  const apply = (args: string[], extraEnv: Record<string, string> = {}) => git([...GIT_APPLY_CONFIG, "apply", ...args, "--binary", patch], extraEnv);
  if (mode === "at_base") {
    const check = await apply(["--check", "--index"]);
    if (check.code !== 0) throw refuse(`the patch does not apply to ${short}: ${check.failure ?? "git apply refused it"}`, "nothing was applied; ask the sender to capture it again");
    return mode;
  }
  // The rehearsal: the same three-way apply on a temporary index, which leaves conflicts at
  // higher stages there, never in this checkout.
  const index = { GIT_INDEX_FILE: join(scratch, "index") };
  await git(["read-tree", "HEAD"], index);
  const rehearsal = await apply(["--cached", "--3way"], index);
  if (rehearsal.code === 0) return mode;
  const unmerged = await git(["ls-files", "-u", "-z"], index);
  const conflicts = [
    ...new Set(
      unmerged.stdout
        .split("\0")
        .filter(Boolean)
        .map((line) => line.slice(line.indexOf("\t") + 1)),
    ),
  ];
  throw refuse(
    conflicts.length > 0
      ? `the changes conflict with this checkout in ${list(conflicts)}`
      : `the changes do not apply onto HEAD ${head.slice(0, 12)}: ${rehearsal.failure ?? "git apply --3way refused them"}`,
    `nothing was applied; check out ${short} (the commit they were captured at) and apply there, or resolve by hand`,
    { conflicts },
  );
}

function refuse(why: string, hint: string, details?: Record<string, unknown>): HandoffError {
  return new HandoffError("diverged", `--apply-changes: ${why}; nothing was applied`, { hint, ...(details ? { details } : {}) });
}

function list(paths: string[]): string {
  return paths.length <= 5 ? paths.join(", ") : `${paths.slice(0, 5).join(", ")} and ${paths.length - 5} more`;
}
