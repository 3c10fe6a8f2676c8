/**
 * Continuity warnings for `handoff create`: the things about the captured state that the next
 * session cannot recover from the handoff alone. Warnings never block creation and nothing is
 * mutated to fix them (the contract: warn, do not commit, stash or copy).
 *
 * @example
 * ```ts
 * continuityWarnings({ git: undefined, body: "see /home/me/notes.txt" }).map((w) => w.code)
 * // ["no_git", "machine_local_paths"]
 * ```
 */

export type ContinuityCode = "no_git" | "no_commits" | "dirty_tree" | "detached_head" | "unpushed_commits" | "no_upstream" | "machine_local_paths";

export interface ContinuityWarning {
  code: ContinuityCode;
  message: string;
}

/** The git facts the warnings need; `client/lib/git.ts` captures a superset. */
export interface ContinuityGit {
  branch?: string;
  head?: string;
  detached: boolean;
  /** Changed, staged and untracked entries. */
  dirty: number;
  upstream?: string;
  /** Commits on the branch that its upstream does not have, when there is an upstream. */
  ahead?: number;
}

export function continuityWarnings(facts: { git: ContinuityGit | undefined; body: string; localRoots?: string[] }): ContinuityWarning[] {
  const warnings: ContinuityWarning[] = [];
  const { git } = facts;
  if (!git) {
    warnings.push({ code: "no_git", message: "not in a git repository: the handoff records the working directory only" });
  } else {
    if (git.head === undefined) warnings.push({ code: "no_commits", message: "the repository has no commits yet: nothing anchors the handoff to a revision" });
    if (git.dirty > 0) {
      warnings.push({
        code: "dirty_tree",
        message: `the working tree has ${git.dirty} uncommitted change${git.dirty === 1 ? ": it exists" : "s: they exist"} only in this checkout`,
      });
    }
    if (git.detached) warnings.push({ code: "detached_head", message: "HEAD is detached: commits made here belong to no branch" });
    if (git.head !== undefined && !git.detached && git.upstream === undefined) {
      warnings.push({ code: "no_upstream", message: `branch ${git.branch ?? "(unknown)"} has no upstream: its commits may exist only on this machine` });
    }
    if (git.ahead !== undefined && git.ahead > 0) {
      warnings.push({
        code: "unpushed_commits",
        message: `${git.ahead} commit${git.ahead === 1 ? "" : "s"} not pushed to ${git.upstream ?? "the upstream"}: another machine will not see ${git.ahead === 1 ? "it" : "them"}`,
      });
    }
  }
  const paths = machineLocalPaths(facts.body, facts.localRoots ?? []);
  if (paths.length > 0) {
    warnings.push({
      code: "machine_local_paths",
      message: `the body names machine-local absolute paths (${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ", ..." : ""}): label them machine-local or use repository-relative paths`,
    });
  }
  return warnings;
}

// Roots that only ever mean "this machine"; the capture's own directories are added by the caller.
const LOCAL_ROOT = /(?:^|[\s"'`(<[=])((?:\/(?:home|Users|root|tmp|private|var\/folders|mnt|media|Volumes)\/|[A-Za-z]:\\Users\\)[^\s"'`)>\]]+)/g;

/** Absolute machine-local paths in `body`, unless the author already labelled them machine-local. */
export function machineLocalPaths(body: string, localRoots: string[]): string[] {
  if (/machine[- ]local/i.test(body)) return [];
  const found = new Set<string>();
  for (const match of body.matchAll(LOCAL_ROOT)) if (match[1]) found.add(trimSentenceEnd(match[1]));
  for (const root of localRoots) {
    if (root.length < 2) continue;
    let at = body.indexOf(root);
    while (at !== -1) {
      const end = body.slice(at).search(/[\s"'`)>\]]|$/);
      found.add(trimSentenceEnd(body.slice(at, at + end)));
      at = body.indexOf(root, at + Math.max(end, 1));
    }
  }
  return [...found].sort();
}

/** "see /home/me/x." names /home/me/x: prose punctuation is not part of the path. */
function trimSentenceEnd(path: string): string {
  return path.replace(/[.,;:!?]+$/, "");
}
