import { GIT_SAFE_CONFIG, runGit } from "../platform/git.js";
import { HandoffError } from "../../shared/errors.js";
import { basename, dirname } from "node:path";
import type { ContinuityGit } from "../../shared/ce/continuity.js";
import { repositoryNamespace, sanitizeRepoName } from "../../shared/repo/namespace.js";
import { repoNameFromRemote, stripRemoteCredentials } from "../../shared/repo/remote-url.js";
import type { Env } from "../platform/env.js";

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
export { GIT_SAFE_CONFIG };

/**
 * The `-c` overrides that switch off each filter driver in `git config -z --get-regexp ^filter\.`
 * output (entries `key\nvalue\0`): an empty command is no filter at all (git's convert.c skips
 * it), and `required=false` keeps git from refusing a file whose filter is now empty. A driver
 * name `-c` cannot carry (one with '=') is an error: better no diff than a filter that runs.
 *
 * @example
 * ```ts
 * filterOverrides("filter.lfs.clean\ngit-lfs clean -- %f\0") // ["-c", "filter.lfs.clean=", "-c", "filter.lfs.smudge=", ...]
 * ```
 */
export function filterOverrides(listing: string): string[] {
  const drivers = new Set<string>();
  for (const entry of listing.split("\0")) {
    const key = entry.split("\n", 1)[0] ?? "";
    if (!key.startsWith("filter.") || key.lastIndexOf(".") <= "filter".length) continue;
    drivers.add(key.slice("filter.".length, key.lastIndexOf(".")));
  }
  for (const name of drivers) {
    if (name.includes("=")) {
      throw new HandoffError("unsafe_store", `the repository defines a filter driver named '${name}', which cannot be switched off`, {
        hint: "rename the filter driver in the repository's config",
      });
    }
  }
  return [...drivers].flatMap((name) => [...["clean", "smudge", "process"].flatMap((key) => ["-c", `filter.${name}.${key}=`]), "-c", `filter.${name}.required=false`]);
}

/**
 * The filter overrides for the repository at `cwd` (reading config runs nothing). The runner
 * already puts {@link GIT_SAFE_CONFIG} before every call; these add what depends on the
 * repository's own filter drivers. Put before the git subcommand: `git ...safeGitArgs... diff ...`.
 */
export async function safeGitArgs(cwd: string, env: Env): Promise<string[]> {
  const listing = await git(["config", "-z", "--get-regexp", "^filter\\."], cwd, env);
  return filterOverrides(listing ?? "");
}

/** The checkout's top folder, common git dir and own git dir. */
const LOCATE = ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir"];
// The root reached by following first parents: merging an unrelated (older) history into the
// branch adds a root but never changes this one, so the namespace stays put.
const ROOT_COMMIT = ["rev-list", "--first-parent", "--max-parents=0", "HEAD"];
const REMOTES = ["config", "--get-regexp", "^remote\\..*\\.url$"];

/**
 * Captures the git state of `cwd` with four git processes run in parallel. Outside a repository
 * (or without git installed) it returns undefined: that is a warning for the caller, not an error.
 */
export async function captureGit(cwd: string, env: Env = process.env): Promise<GitCapture | undefined> {
  const run = (args: string[]) => git(args, cwd, env);
  const [revParse, roots, remotes, status] = await Promise.all([run(LOCATE), run(ROOT_COMMIT), run(REMOTES), run(["status", "--porcelain=v2", "--branch"])]);
  const identity = identityOf(revParse, roots, remotes);
  if (identity === undefined || status === undefined) return undefined;
  return { ...identity, ...parseStatus(status) };
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
      const identity = identityOf(located, roots, remotes);
      if (identity === undefined) return undefined;
      return branch ? { ...identity, branch } : identity;
    },
  };
}

type RepoIdentity = Omit<GitIdentity, "branch">;

function splitRevParse(revParse: string | undefined): { toplevel: string; commonDir: string; gitDir: string } | undefined {
  const [toplevel, commonDir, gitDir] = revParse?.split("\n") ?? [];
  return toplevel && commonDir && gitDir ? { toplevel, commonDir, gitDir } : undefined;
}

function identityOf(revParse: string | undefined, roots: string | undefined, remotes: string | undefined): RepoIdentity | undefined {
  const located = splitRevParse(revParse);
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

async function git(args: string[], cwd: string, env: Env): Promise<string | undefined> {
  const run = await runGit(args, { cwd, env });
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
