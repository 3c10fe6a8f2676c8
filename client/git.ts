import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { HandoffError } from "../shared/errors.js";
import { basename, dirname } from "node:path";
import type { ContinuityGit } from "../shared/ce/continuity.js";
import { repositoryNamespace, sanitizeRepoName } from "../shared/namespace.js";
import { repoNameFromRemote, stripRemoteCredentials } from "../shared/remote-url.js";

/**
 * What `handoff create` records about the checkout. Plain data; absent fields did not apply.
 * The branch/head/dirty/upstream facts are the ones continuity warnings read.
 */
export interface GitCapture extends ContinuityGit {
  toplevel: string;
  /** Set only in a linked worktree (not the main one): the worktree's own top folder. */
  worktree_path?: string;
  behind?: number;
  repo_root_sha?: string;
  /** Credential-stripped remote URL, else the sanitized repository name. */
  repository: string;
  /** The name every worktree of the repo shares, before sanitizing. */
  repoName: string;
  /** The managed store folder: `<repo>-<root12>` or `general`. */
  namespace: string;
}

// Read-only: never take optional locks (git status would otherwise refresh and rewrite the index),
// never prompt, and read messages in one language.
const GIT_ENV = { GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };

/**
 * Captures the git state of `cwd` with four git processes run in parallel. Outside a repository
 * (or without git installed) it returns undefined: that is a warning for the caller, not an error.
 */
export async function captureGit(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<GitCapture | undefined> {
  const run = (args: string[]) => git(args, cwd, env);
  const [identity, status] = await Promise.all([identityOf(run), run(["status", "--porcelain=v2", "--branch"])]);
  if (identity === undefined || status === undefined) return undefined;
  return { ...identity, ...parseStatus(status) };
}

/** Which repository, worktree and branch `cwd` is in: what ranking needs, without walking the tree. */
export type GitIdentity = Pick<GitCapture, "toplevel" | "worktree_path" | "repo_root_sha" | "repository" | "repoName" | "namespace" | "branch">;

/**
 * `captureGit` without `git status`: discovery ranks by repository, worktree and branch and never
 * needs the dirty state, so it does not pay for a walk of the working tree.
 */
export async function captureGitIdentity(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<GitIdentity | undefined> {
  const run = (args: string[]) => git(args, cwd, env);
  const [identity, branch] = await Promise.all([identityOf(run), run(["symbolic-ref", "--quiet", "--short", "HEAD"])]);
  if (identity === undefined) return undefined;
  return branch ? { ...identity, branch } : identity;
}

type RepoIdentity = Omit<GitIdentity, "branch">;

async function identityOf(run: (args: string[]) => Promise<string | undefined>): Promise<RepoIdentity | undefined> {
  const [revParse, roots, remotes] = await Promise.all([
    run(["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir"]),
    // The root reached by following first parents: merging an unrelated (older) history into the
    // branch adds a root but never changes this one, so the namespace stays put.
    run(["rev-list", "--first-parent", "--max-parents=0", "HEAD"]),
    run(["config", "--get-regexp", "^remote\\..*\\.url$"]),
  ]);
  if (revParse === undefined) return undefined;
  const [toplevel, commonDir, gitDir] = revParse.split("\n");
  if (!toplevel || !commonDir || !gitDir) return undefined;
  const rootCommit = roots?.trim().split("\n").filter(Boolean).pop();
  const remote = pickRemote(remotes ?? "");
  const repoName = (remote && repoNameFromRemote(remote)) ?? mainWorktreeName(commonDir);
  const identity: RepoIdentity = {
    toplevel,
    repository: remote ? stripRemoteCredentials(remote) : sanitizeRepoName(repoName),
    repoName,
    namespace: repositoryNamespace({ name: repoName, rootCommit }),
  };
  if (rootCommit) identity.repo_root_sha = rootCommit;
  if (gitDir !== commonDir) identity.worktree_path = toplevel;
  return identity;
}

type BranchInfo = Pick<GitCapture, "branch" | "head" | "detached" | "dirty" | "upstream" | "ahead" | "behind">;

/** Parses `git status --porcelain=v2 --branch`: header lines start with `# `, every other line is an entry. */
export function parseStatus(output: string): BranchInfo {
  const info: BranchInfo = { detached: false, dirty: 0 };
  for (const line of output.split("\n")) {
    if (line === "") continue;
    if (!line.startsWith("# ")) {
      info.dirty++;
      continue;
    }
    const [, key, ...rest] = line.split(" ");
    const value = rest.join(" ");
    if (key === "branch.oid" && value !== "(initial)") info.head = value;
    else if (key === "branch.head") {
      if (value === "(detached)") info.detached = true;
      else info.branch = value;
    } else if (key === "branch.upstream") info.upstream = value;
    else if (key === "branch.ab") {
      const match = /^\+(\d+) -(\d+)$/.exec(value);
      if (match) {
        info.ahead = Number(match[1]);
        info.behind = Number(match[2]);
      }
    }
  }
  return info;
}

/** `origin` when it exists, else the first remote git lists. */
function pickRemote(config: string): string | undefined {
  const entries = config
    .split("\n")
    .map((line) => /^remote\.(.+)\.url (.+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null);
  return (entries.find((m) => m[1] === "origin") ?? entries[0])?.[2];
}

/** The main worktree's folder name, which every linked worktree shares through the common git dir. */
function mainWorktreeName(commonDir: string): string {
  const name = basename(commonDir);
  return name === ".git" ? basename(dirname(commonDir)) : name.replace(/\.git$/i, "");
}

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, env: { ...env, ...GIT_ENV }, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, stdout) => {
      resolve(error ? undefined : stdout.replace(/\n$/, ""));
    });
  });
}

/** sha256 of `git diff --binary HEAD`, the kernel contract's fingerprint of uncommitted changes. */
export function dirtyTreeSha256(toplevel: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      ["diff", "--binary", "HEAD"],
      { cwd: toplevel, env: { ...env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" }, encoding: "buffer", maxBuffer: 512 * 1024 * 1024 },
      (error, stdout) => {
        if (error) reject(new HandoffError("io_failed", "git diff --binary HEAD failed", { hint: "check the repository", cause: error }));
        else resolvePromise(createHash("sha256").update(stdout).digest("hex"));
      },
    );
  });
}
