import { type GitRun, runGit, runGitSync } from "../platform/git.js";
import { HandoffError } from "../../shared/errors.js";
import { basename, dirname } from "node:path";
import type { ContinuityGit } from "../../shared/ce/continuity.js";
import { repositoryNamespace, sanitizeRepoName } from "../../shared/repo/namespace.js";
import { repoNameFromRemote, stripRemoteCredentials } from "../../shared/repo/remote-url.js";
import type { Env } from "../platform/env.js";
import { type CheckoutPaths, locateCheckout } from "../platform/work-tree.js";

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

// The one git runner puts these `-c` settings before every call; exported for the callers that
// build their own argument lists (and for its test).

/** The checkout's top folder, common git dir and own git dir. */
const LOCATE = ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir"];
// The root reached by following first parents: merging an unrelated (older) history into the
// branch adds a root but never changes this one, so the namespace stays put.
const ROOT_COMMIT = ["rev-list", "--first-parent", "--max-parents=0", "HEAD"];
const REMOTES = ["config", "--get-regexp", "^remote\\..*\\.url$"];
/** The remotes' URLs and the filter drivers `git status` must switch off (platform/git.ts), in one config read. */
const REMOTES_AND_FILTERS = ["config", "-z", "--get-regexp", "^(remote\\..*\\.url$|filter\\.)"];
const STATUS = ["status", "--porcelain=v2", "--branch"];

/**
 * Captures the git state of `cwd`. Outside a repository (or without git installed) it returns
 * undefined: that is a warning for the caller, not an error.
 * Three git processes, where a plain checkout allows: where the checkout is comes from the
 * git-free walk of platform/work-tree.ts (git's `rev-parse` only where the walk cannot tell), one
 * config read serves both the remotes and the filter overrides status needs, and the root commit
 * is asked beside them. Outside any repository the walk says so and no git runs at all.
 */
export async function captureGit(cwd: string, env: Env = process.env): Promise<GitCapture | undefined> {
  const walked = locateCheckout(cwd, env);
  if (walked === undefined) return undefined;
  const config = runGit(REMOTES_AND_FILTERS, { cwd, env }).then((run) => (run.failure === undefined ? run.stdout : ""));
  const [located, roots, listing, status] = await Promise.all([
    walked === "unsure" ? git(LOCATE, cwd, env).then(splitRevParse) : walked,
    git(ROOT_COMMIT, cwd, env),
    config,
    config.then((filterListing) => git(STATUS, cwd, env, filterListing)),
  ]);
  return captured(located, roots, listing, status);
}

/**
 * captureGit for a command-line process, which has nothing to do while git runs: the same
 * processes and facts, one after the other with spawnSync (no streams, no event loop turn per
 * process), and none after an answer that settles it (not a repository, no status). Measured
 * on this machine (issue 26): the three processes as a script, 77-83 ms against 97-100 ms
 * spawned in parallel. A server (the MCP tools) keeps captureGit, which never blocks.
 */
export function captureGitSync(cwd: string, env: Env = process.env): GitCapture | undefined {
  const walked = locateCheckout(cwd, env);
  if (walked === undefined) return undefined;
  const located = walked === "unsure" ? splitRevParse(gitSync(LOCATE, cwd, env)) : walked;
  if (located === undefined) return undefined;
  const listing = gitSync(REMOTES_AND_FILTERS, cwd, env) ?? "";
  const status = gitSync(STATUS, cwd, env, listing);
  if (status === undefined) return undefined;
  return captured(located, gitSync(ROOT_COMMIT, cwd, env), listing, status);
}

function captured(located: CheckoutPaths | undefined, roots: string | undefined, listing: string, status: string | undefined): GitCapture | undefined {
  const identity = identityOf(located, roots, remotesOf(listing));
  if (identity === undefined || status === undefined) return undefined;
  return { ...identity, ...parseStatus(status) };
}

/** `remote.<name>.url <value>` lines, as `git config --get-regexp` prints them, from a `-z` listing. */
function remotesOf(listing: string): string {
  const lines: string[] = [];
  for (const entry of listing.split("\0")) {
    const [key = "", value] = entry.split("\n");
    // A value-less key (`url` alone) names no URL; a value over several lines counts to its first, as before.
    if (key.startsWith("remote.") && value !== undefined) lines.push(`${key} ${value}`);
  }
  return lines.join("\n");
}

/** Which repository, worktree and branch `cwd` is in: what ranking needs, without walking the tree. */
export type GitIdentity = Pick<GitCapture, "toplevel" | "worktree_path" | "repo_root_sha" | "repository" | "repoName" | "namespace" | "branch">;

/**
 * `captureGit` without `git status` (discovery ranks by repository, worktree and branch and never
 * needs the dirty state, so it does not pay for a walk of the working tree), in two steps, each git process started on first need and run once: where the
 * checkout is (`rev-parse`, one process), and the rest (root commit, remotes, branch: three more,
 * in parallel). `start()` runs all four at once, for a caller that will need them.
 */
export function gitIdentityOnDemand(cwd: string, env: Env = process.env) {
  const run = (args: string[]) => git(args, cwd, env);
  let where: Promise<string | undefined> | undefined;
  let rest: Promise<[string | undefined, string | undefined, string | undefined]> | undefined;
  const revParse = () => (where ??= run(LOCATE));
  const others = () => (rest ??= Promise.all([run(ROOT_COMMIT), run(REMOTES), run(["symbolic-ref", "--quiet", "--short", "HEAD"])]));
  return {
    start(): void {
      revParse();
      others();
    },
    async toplevel(): Promise<string | undefined> {
      return splitRevParse(await revParse())?.toplevel;
    },
    async identity(): Promise<GitIdentity | undefined> {
      const [located, [roots, remotes, branch]] = await Promise.all([revParse(), others()]);
      const identity = identityOf(splitRevParse(located), roots, remotes);
      if (identity === undefined) return undefined;
      return branch ? { ...identity, branch } : identity;
    },
  };
}

type RepoIdentity = Omit<GitIdentity, "branch">;

function splitRevParse(revParse: string | undefined): CheckoutPaths | undefined {
  const [toplevel, commonDir, gitDir] = revParse?.split("\n") ?? [];
  return toplevel && commonDir && gitDir ? { toplevel, commonDir, gitDir } : undefined;
}

function identityOf(located: CheckoutPaths | undefined, roots: string | undefined, remotes: string | undefined): RepoIdentity | undefined {
  if (located === undefined) return undefined;
  const { toplevel, commonDir, gitDir } = located;
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

async function git(args: string[], cwd: string, env: Env, filterListing?: string): Promise<string | undefined> {
  return answer(await runGit(args, { cwd, env, filterListing }));
}

function gitSync(args: string[], cwd: string, env: Env, filterListing?: string): string | undefined {
  return answer(runGitSync(args, { cwd, env, filterListing }));
}

/** What git printed, without its last line break; undefined when it failed. */
function answer(run: GitRun<string>): string | undefined {
  return run.failure === undefined ? run.stdout.replace(/\n$/, "") : undefined;
}

/** sha256 of `git diff --binary HEAD`, the kernel contract's fingerprint of uncommitted changes. */
export async function dirtyTreeSha256(toplevel: string, env: Env): Promise<string> {
  const run = await runGit(["diff", "--binary", "--no-textconv", "--no-ext-diff", "HEAD"], { cwd: toplevel, env, maxBytes: 512 * 1024 * 1024, binary: true });
  if (run.failure !== undefined) throw new HandoffError("io_failed", `git diff --binary HEAD failed: ${run.failure}`, { hint: "check the repository" });
  // Loaded here, not at the top: discovery imports this module on every resume and never hashes.
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(run.stdout).digest("hex");
}
