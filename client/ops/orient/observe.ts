import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { ObservedState, RecordedState } from "../../../shared/orient/drift.js";
import { scanPaths } from "../../../shared/orient/paths.js";
import { type GitCapture, captureGit, dirtyTreeSha256 } from "../../lib/git.js";
import { runGit } from "../../platform/git.js";
import { hashPinnedFile } from "../../lib/pinned-artifact.js";
import type { Env } from "../../platform/env.js";
import { partialRealpath, repoRelative } from "../../platform/paths.js";

/**
 * Gathers, read-only, the facts drift is computed from: the current git state, how the recorded
 * commit relates to HEAD, whether named paths and pinned artifacts still exist and match.
 * Nothing is written, fetched or locked (GIT_OPTIONAL_LOCKS=0).
 */

const HEX_COMMIT = /^[0-9a-fA-F]{4,64}$/;

/** What a source recorded about its checkout, from ce frontmatter, other frontmatter, or a manifest. */
export function recordedState(metadata: Record<string, unknown>, manifest: unknown): RecordedState {
  const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const recorded: RecordedState = {};
  const provenance = (manifest as { provenance?: Record<string, unknown> } | undefined)?.provenance;
  const assign = <K extends keyof RecordedState>(key: K, value: RecordedState[K] | undefined) => {
    if (value !== undefined) recorded[key] = value;
  };
  assign("repository", str(metadata.repository));
  assign("repo_root_sha", str(metadata.repo_root_sha));
  assign("branch", str(provenance?.branch) ?? str(metadata.branch));
  assign("head", str(provenance?.commit) ?? str(metadata.head));
  assign("worktree_path", str(metadata.worktree_path));
  assign("cwd", str(metadata.cwd));
  // A kernel manifest's provenance, else the capture facts our ce-handoff frontmatter carries.
  const dirty = provenance?.dirty ?? metadata.dirty;
  if (typeof dirty === "boolean") recorded.dirty = dirty;
  assign("dirty_tree_sha256", str(provenance?.dirty_tree_sha256) ?? (provenance ? undefined : str(metadata.dirty_tree_sha256)));
  if (Array.isArray(provenance?.artifacts)) {
    recorded.artifacts = provenance.artifacts
      .filter((a): a is { path: string; sha256: string } => typeof a?.path === "string" && typeof a?.sha256 === "string")
      .map(({ path, sha256 }) => ({ path, sha256 }));
  }
  return recorded;
}

/** `sourcePath`: the selected file, when it is one; it may live in the checkout it describes. */
export async function observeCheckout(recorded: RecordedState, body: string, cwd: string, env: Env, sourcePath?: string): Promise<{ observed: ObservedState; git?: GitCapture }> {
  const git = await captureGit(cwd, env);
  if (!git) return { observed: { inGit: false, headRelation: "unknown", missingPaths: [], artifacts: [] } };
  const observed: ObservedState = {
    inGit: true,
    repository: git.repository,
    headRelation: "unknown",
    dirty: git.dirty > 0 && (sourcePath === undefined || (await dirtyBesides(git.toplevel, sourcePath, env))),
    missingPaths: [],
    artifacts: [],
  };
  if (git.repo_root_sha) observed.repo_root_sha = git.repo_root_sha;
  if (git.branch && !git.detached) observed.branch = git.branch;
  if (git.head) observed.head = git.head;

  if (recorded.head && git.head) Object.assign(observed, await headRelation(recorded.head, git, env));
  const branchName = recorded.branch && /^[^-]/.test(recorded.branch) && !/[\s~^:?*[\\]|\.\.|@\{/.test(recorded.branch) ? recorded.branch : undefined;
  if (branchName && observed.branch !== branchName) Object.assign(observed, await whereIsBranch(branchName, recorded.head, observed, git.toplevel, env));
  if (observed.headUnreachable) {
    const remote = await fetchRemote(branchName, observed.branch, git.toplevel, env);
    if (remote) observed.fetchRemote = remote;
  }
  if (recorded.dirty_tree_sha256 && observed.dirty) observed.dirty_tree_sha256 = await dirtyTreeSha256(git.toplevel, env);
  if (recorded.worktree_path) observed.worktreeExists = lstatSync(recorded.worktree_path, { throwIfNoEntry: false }) !== undefined;

  // Paths are only meaningful in the repository the handoff was about.
  const sameRepository = !recorded.repo_root_sha || !git.repo_root_sha || recorded.repo_root_sha === git.repo_root_sha;
  if (sameRepository) {
    const { relative: named, absolute } = scanPaths(body);
    for (const path of named) {
      const full = inside(git.toplevel, path);
      if (full && lstatSync(full, { throwIfNoEntry: false }) === undefined) observed.missingPaths.push(path);
    }
    const remapped = remapPaths(recorded, absolute, git.toplevel);
    if (remapped) observed.remapped = remapped;
  }
  for (const artifact of recorded.artifacts ?? []) {
    const full = inside(git.toplevel, artifact.path);
    if (!full) {
      observed.artifacts.push({ path: artifact.path, missing: true });
      continue;
    }
    try {
      const sha256 = hashPinnedFile(full, { what: "the pinned artifact", noFollow: true });
      observed.artifacts.push(sha256 === "too_large" ? { path: artifact.path, missing: false } : { path: artifact.path, sha256, missing: false });
    } catch {
      observed.artifacts.push({ path: artifact.path, missing: lstatSync(full, { throwIfNoEntry: false }) === undefined });
    }
  }
  return { observed, git };
}

/**
 * Whether anything but the source itself is uncommitted. A kernel manifest is written into the
 * repository it describes and stays untracked until committed: counting it would report
 * dirty_changed (and fire rules on it) for every freshly written manifest.
 */
async function dirtyBesides(toplevel: string, sourcePath: string, env: Env): Promise<boolean> {
  let source: string | undefined;
  try {
    source = inside(toplevel, relative(toplevel, realpathSync(sourcePath)));
  } catch {
    return true;
  }
  if (source === undefined) return true;
  const own = relative(toplevel, source).split("\\").join("/");
  const status = await run(["status", "--porcelain=v1", "-z", "--untracked-files=all"], toplevel, env);
  if (status.code !== 0) return true;
  const fields = status.stdout.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] ?? "";
    if (entry === "") continue;
    // A rename or copy is followed by its origin path, which is not an entry of its own.
    if (entry[0] === "R" || entry[0] === "C") i++;
    if (!(entry.startsWith("?? ") && entry.slice(3) === own)) return true;
  }
  return false;
}

/**
 * The sender's worktree (worktree_path, else the capture cwd) when it is not this checkout's
 * top folder, with the body's machine-local paths under it mapped into this checkout. Only for
 * a handoff that recorded which repository it was about (the caller checked it is this one).
 */
function remapPaths(recorded: RecordedState, absolute: string[], toplevel: string): ObservedState["remapped"] {
  const from = (recorded.worktree_path ?? recorded.cwd)?.replace(/\/+$/, "");
  if (!from?.startsWith("/") || (!recorded.repo_root_sha && !recorded.repository)) return undefined;
  if (from === toplevel) return undefined;
  try {
    if (realpathSync(from) === realpathSync(toplevel)) return undefined;
  } catch {
    // The sender's folder does not exist here: the usual case on another machine.
  }
  const paths = absolute
    .filter((path) => path.startsWith(`${from}/`))
    .map((path) => {
      const rel = path.slice(from.length + 1).replace(/\/+$/, "");
      const full = inside(toplevel, rel);
      return full === undefined ? undefined : { path, mapped: full, missing: lstatSync(full, { throwIfNoEntry: false }) === undefined };
    })
    .filter((p): p is { path: string; mapped: string; missing: boolean } => p !== undefined);
  return { from, to: toplevel, paths };
}

/** A repo-relative path resolved inside the checkout, or undefined when it would escape it. */
function inside(toplevel: string, path: string): string | undefined {
  if (isAbsolute(path)) return undefined;
  const full = partialRealpath(resolve(toplevel, path));
  const rel = repoRelative(partialRealpath(toplevel), full);
  return rel === undefined || rel === "" ? undefined : full;
}

async function headRelation(recordedHead: string, git: GitCapture, env: Env): Promise<Pick<ObservedState, "headRelation" | "advancedBy" | "behindBy" | "headUnreachable">> {
  // Not a commit id this clone can name (too short, or not hex, so never handed to git): as
  // unreachable as a commit it lacks, which kernel's reference calls commit_diverged.
  if (!HEX_COMMIT.test(recordedHead)) return { headRelation: "diverged", headUnreachable: true };
  if (git.head?.toLowerCase().startsWith(recordedHead.toLowerCase())) return { headRelation: "same" };
  const known = await run(["cat-file", "-e", `${recordedHead}^{commit}`], git.toplevel, env);
  if (known.code !== 0) return { headRelation: "diverged", headUnreachable: true };
  const ancestor = await run(["merge-base", "--is-ancestor", recordedHead, "HEAD"], git.toplevel, env);
  if (ancestor.code === 1) {
    // HEAD an ancestor of the recorded commit: the receiver is behind, one fast-forward away.
    const behind = await run(["merge-base", "--is-ancestor", "HEAD", recordedHead], git.toplevel, env);
    if (behind.code !== 0) return { headRelation: "diverged" };
    const count = await run(["rev-list", "--count", `HEAD..${recordedHead}`], git.toplevel, env);
    const behindBy = Number(count.stdout.trim());
    return count.code === 0 && Number.isFinite(behindBy) ? { headRelation: "behind", behindBy } : { headRelation: "behind" };
  }
  if (ancestor.code !== 0) return { headRelation: "unknown" };
  const count = await run(["rev-list", "--count", `${recordedHead}..HEAD`], git.toplevel, env);
  const advancedBy = Number(count.stdout.trim());
  return Number.isFinite(advancedBy) && count.code === 0 ? { headRelation: "advanced", advancedBy } : { headRelation: "advanced" };
}

/** Whether the recorded branch exists here (locally, or only as remote-tracking branches) and holds the recorded commit. */
async function whereIsBranch(branch: string, recordedHead: string | undefined, observed: ObservedState, toplevel: string, env: Env): Promise<Pick<ObservedState, "recordedBranch">> {
  const refs = await run(["for-each-ref", "--format=%(refname)", `refs/heads/${branch}`, "refs/remotes/"], toplevel, env);
  if (refs.code !== 0) return {};
  const names = refs.stdout.split("\n").filter(Boolean);
  const local = names.includes(`refs/heads/${branch}`);
  const remotes = (await remoteNames(toplevel, env)).filter((remote) => names.includes(`refs/remotes/${remote}/${branch}`));
  if (!local && remotes.length === 0) return {};
  const ref = local ? `refs/heads/${branch}` : `refs/remotes/${remotes[0]}/${branch}`;
  const holdsHead =
    recordedHead !== undefined && !observed.headUnreachable && HEX_COMMIT.test(recordedHead) && (await run(["merge-base", "--is-ancestor", recordedHead, ref], toplevel, env)).code === 0;
  return { recordedBranch: { local, remotes, holdsHead } };
}

/**
 * The remote to fetch a missing commit from: the one the recorded branch tracks here, else the
 * one the current branch tracks, else `origin` or the only remote.
 */
async function fetchRemote(branch: string | undefined, current: string | undefined, toplevel: string, env: Env): Promise<string | undefined> {
  const remotes = await remoteNames(toplevel, env);
  for (const name of [branch, current]) {
    if (name === undefined) continue;
    const tracked = (await run(["config", "--get", `branch.${name}.remote`], toplevel, env)).stdout.trim();
    if (remotes.includes(tracked)) return tracked;
  }
  return remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0] : undefined;
}

async function remoteNames(toplevel: string, env: Env): Promise<string[]> {
  const listed = await run(["remote"], toplevel, env);
  return listed.code === 0
    ? listed.stdout
        .split("\n")
        .map((r) => r.trim())
        .filter(Boolean)
    : [];
}

function run(args: string[], cwd: string, env: Env): Promise<{ code: number; stdout: string }> {
  return runGit(args, { cwd, env });
}
