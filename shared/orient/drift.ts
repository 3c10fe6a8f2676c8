import { normaliseRepository, sameCommit } from "../discover/repo-identity.js";
import type { KernelEvent } from "../kernel/rules.js";

/**
 * Drift: what changed between the state a handoff recorded and the checkout a session resumes
 * in. Pure: the client gathers the observed facts read-only (git, stat, sha256) and this maps
 * them to events named like the kernel's divergence vocabulary, so invalidation rules written
 * for kernel manifests apply to any handoff.
 */

// KernelEvent comes from the validator's rules, the one home of the `when.event` vocabulary, so
// drift can never emit a name a manifest may not use.

/** Events beyond the kernel vocabulary, for what ce-handoff metadata and bodies record. */
export type HandoffEvent = "repository_mismatch" | "repo_root_mismatch" | "worktree_missing" | "path_missing";

export type DriftEvent = KernelEvent | HandoffEvent;

export interface RecordedState {
  repository?: string;
  repo_root_sha?: string;
  branch?: string;
  head?: string;
  dirty?: boolean;
  dirty_tree_sha256?: string;
  worktree_path?: string;
  artifacts?: { path: string; sha256: string }[];
}

export interface ObservedState {
  inGit: boolean;
  repository?: string;
  repo_root_sha?: string;
  /** undefined: detached HEAD or unknown. */
  branch?: string;
  head?: string;
  /**
   * How the recorded head relates to the current HEAD: "advanced" = recorded is an ancestor;
   * "diverged" = not an ancestor, including a commit this clone cannot reach (as kernel's
   * reference has it); "unknown" = HEAD or git itself cannot be read.
   */
  headRelation: "same" | "advanced" | "diverged" | "unknown";
  /** With "diverged": the recorded commit is not in this clone at all. */
  headUnreachable?: boolean;
  advancedBy?: number;
  dirty?: boolean;
  dirty_tree_sha256?: string;
  /** undefined: not checked. */
  worktreeExists?: boolean;
  /** Repository-relative paths named in the body that do not exist now. */
  missingPaths: string[];
  /** One entry per recorded artifact the client looked at; no sha256 and not missing = unreadable. */
  artifacts: { path: string; sha256?: string; missing: boolean }[];
}

export interface DriftItem {
  event: DriftEvent;
  status: "ok" | "drift" | "unknown";
  /** hard: the resume should stop (CLI exit 1); warn: name it; info: for the record. */
  severity: "info" | "warn" | "hard";
  message: string;
  path?: string;
  expected?: string | boolean;
  actual?: string | boolean;
}

/**
 * Maps recorded and observed state to drift items, in a fixed order: repository, branch,
 * commit, dirty state, worktree, artifacts (in recorded order), then missing paths (sorted).
 * Kernel events are emitted whenever the recorded side has the field ("ok" events included, so
 * rules may name them); the handoff-only events only when something is wrong.
 *
 * @example
 * ```ts
 * computeDrift({ branch: "main", head: "abc" }, { inGit: true, branch: "main", head: "def",
 *   headRelation: "advanced", advancedBy: 2, missingPaths: [], artifacts: [] })
 * // [{ event: "branch_match", status: "ok", ... }, { event: "commit_advanced", status: "drift", ... }]
 * ```
 */
export function computeDrift(recorded: RecordedState, observed: ObservedState, options: { kernel?: boolean } = {}): DriftItem[] {
  const items = [
    ...repositoryDrift(recorded, observed),
    ...branchDrift(recorded, observed, options.kernel === true),
    ...commitDrift(recorded, observed),
    ...dirtyDrift(recorded, observed),
    ...worktreeDrift(recorded, observed),
    ...artifactDrift(recorded, observed),
    ...[...new Set(observed.missingPaths)].sort().map((path): DriftItem => ({
      event: "path_missing",
      status: "drift",
      severity: "warn",
      message: `${path} is named in the handoff but does not exist in this checkout`,
      path,
    })),
  ];
  return options.kernel ? items.map((item) => (KERNEL_HARD.has(item.event) && item.status !== "ok" ? { ...item, severity: "hard" } : item)) : items;
}

/**
 * The events kernel's reference `divergence` treats as hard ("diverged": resume stops, exit 1)
 * for a kernel manifest or checkpoint. A ce-handoff keeps them as warnings, apart from
 * commit_diverged, which is hard for every source: its history no longer holds the recorded commit.
 */
export const KERNEL_HARD: ReadonlySet<DriftEvent> = new Set<DriftEvent>([
  "branch_unknown",
  "branch_diverged",
  "commit_diverged",
  "commit_unknown",
  "dirty_tree_hash_mismatch",
  "artifact_missing",
  "artifact_hash_mismatch",
]);

/**
 * Hard divergence stops a resume: the checkout is another repository (root commit differs) or
 * its history no longer contains the recorded commit (rebased, reset, another line of work).
 *
 * @example
 * ```ts
 * hasHardDivergence([{ event: "commit_diverged", status: "drift", severity: "hard", message: "" }]) // true
 * ```
 */
export function hasHardDivergence(items: DriftItem[]): boolean {
  return items.some((item) => item.severity === "hard");
}

function repositoryDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  const items: DriftItem[] = [];
  if (recorded.repo_root_sha && observed.repo_root_sha && !sameCommit(recorded.repo_root_sha, observed.repo_root_sha)) {
    items.push({
      event: "repo_root_mismatch",
      status: "drift",
      severity: "hard",
      message: `this checkout is a different repository: root commit ${short(observed.repo_root_sha)}, the handoff recorded ${short(recorded.repo_root_sha)}`,
      expected: recorded.repo_root_sha,
      actual: observed.repo_root_sha,
    });
  }
  // The same root commit is the same history: another clone or remote name is not drift.
  const sameRoot = recorded.repo_root_sha !== undefined && observed.repo_root_sha !== undefined && sameCommit(recorded.repo_root_sha, observed.repo_root_sha);
  if (!sameRoot && recorded.repository && observed.repository && normaliseRepository(recorded.repository) !== normaliseRepository(observed.repository)) {
    items.push({
      event: "repository_mismatch",
      status: "drift",
      severity: "warn",
      message: `repository is ${observed.repository}, the handoff recorded ${recorded.repository}`,
      expected: recorded.repository,
      actual: observed.repository,
    });
  }
  if (!observed.inGit && (recorded.repository || recorded.repo_root_sha)) {
    items.push({
      event: "repository_mismatch",
      status: "unknown",
      severity: "warn",
      message: "not inside a git repository here; the handoff was captured in one",
      expected: recorded.repository ?? recorded.repo_root_sha,
    });
  }
  return items;
}

function branchDrift(recorded: RecordedState, observed: ObservedState, kernel: boolean): DriftItem[] {
  if (!recorded.branch) return [];
  const expected = recorded.branch;
  // Kernel's reference reads a detached HEAD as the branch "" (git branch --show-current): diverged.
  if (kernel && observed.inGit && observed.branch === undefined) {
    return [{ event: "branch_diverged", status: "drift", severity: "warn", message: `HEAD is detached; the handoff recorded branch '${expected}'`, expected, actual: "" }];
  }
  if (!observed.inGit || observed.branch === undefined) {
    const why = observed.inGit ? "HEAD is detached or the branch cannot be determined" : "not inside a git repository";
    return [{ event: "branch_unknown", status: "unknown", severity: "warn", message: `branch unknown: ${why}; the handoff recorded '${expected}'`, expected }];
  }
  if (observed.branch === expected) {
    return [{ event: "branch_match", status: "ok", severity: "info", message: `on branch '${expected}' as recorded`, expected, actual: observed.branch }];
  }
  return [{
    event: "branch_diverged",
    status: "drift",
    severity: "warn",
    message: `on branch '${observed.branch}', the handoff recorded '${expected}'`,
    expected,
    actual: observed.branch,
  }];
}

function commitDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  if (!recorded.head) return [];
  const expected = recorded.head;
  const actual = observed.head;
  const base = { expected, ...(actual === undefined ? {} : { actual }) };
  const relation = actual !== undefined && sameCommit(expected, actual) ? "same" : observed.inGit ? observed.headRelation : "unknown";
  switch (relation) {
    case "same":
      return [{ event: "commit_match", status: "ok", severity: "info", message: `HEAD is ${short(expected)} as recorded`, ...base }];
    case "advanced": {
      const by = observed.advancedBy === undefined ? "" : ` by ${observed.advancedBy} commit${observed.advancedBy === 1 ? "" : "s"}`;
      return [{ event: "commit_advanced", status: "drift", severity: "warn", message: `HEAD advanced${by} since ${short(expected)} (the recorded commit is an ancestor)`, ...base }];
    }
    case "diverged":
      return [{
        event: "commit_diverged",
        status: "drift",
        severity: "hard",
        message: observed.headUnreachable
          ? `the recorded commit ${short(expected)} is not in this clone (not fetched, or history rewritten); HEAD is ${short(actual ?? "?")}`
          : `HEAD ${short(actual ?? "?")} does not contain the recorded commit ${short(expected)} (history rewritten or another line of work)`,
        ...base,
      }];
    case "unknown":
      return [{
        event: "commit_unknown",
        status: "unknown",
        severity: "warn",
        message: observed.inGit
          ? `cannot tell how HEAD relates to the recorded commit ${short(expected)} (git could not answer)`
          : `not inside a git repository; the handoff recorded commit ${short(expected)}`,
        ...base,
      }];
  }
}

function dirtyDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  const items: DriftItem[] = [];
  if (recorded.dirty !== undefined && observed.dirty !== undefined) {
    const describe = (dirty: boolean) => (dirty ? "uncommitted changes" : "a clean tree");
    items.push(recorded.dirty === observed.dirty
      ? { event: "dirty_match", status: "ok", severity: "info", message: `${describe(observed.dirty)}, as recorded`, expected: recorded.dirty, actual: observed.dirty }
      : {
          event: "dirty_changed",
          status: "drift",
          severity: "warn",
          message: `the handoff recorded ${describe(recorded.dirty)}; the checkout now has ${describe(observed.dirty)}`,
          expected: recorded.dirty,
          actual: observed.dirty,
        });
  }
  if (recorded.dirty_tree_sha256) {
    const expected = recorded.dirty_tree_sha256;
    const actual = observed.dirty_tree_sha256;
    // A clean tree now means the recorded uncommitted changes are gone: a mismatch, not unknown.
    if (actual !== undefined || observed.dirty === false) {
      items.push(actual !== undefined && sameDigest(expected, actual)
        ? { event: "dirty_tree_hash_match", status: "ok", severity: "info", message: "uncommitted changes are byte-identical to the recorded ones", expected, actual }
        : {
            event: "dirty_tree_hash_mismatch",
            status: "drift",
            severity: "warn",
            message: actual === undefined ? "the recorded uncommitted changes are gone (the tree is clean)" : "uncommitted changes differ from the recorded ones",
            expected,
            ...(actual === undefined ? {} : { actual }),
          });
    }
  }
  return items;
}

function worktreeDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  if (!recorded.worktree_path || observed.worktreeExists !== false) return [];
  return [{
    event: "worktree_missing",
    status: "drift",
    severity: "warn",
    message: `the recorded worktree ${recorded.worktree_path} no longer exists; its machine-local state (uncommitted or ignored files) is gone`,
    path: recorded.worktree_path,
  }];
}

function artifactDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  const seen = new Map(observed.artifacts.map((a) => [a.path, a]));
  return (recorded.artifacts ?? []).map((artifact): DriftItem => {
    const { path, sha256: expected } = artifact;
    const now = seen.get(path);
    if (now?.missing) {
      return { event: "artifact_missing", status: "drift", severity: "warn", message: `pinned artifact ${path} is missing`, path, expected };
    }
    if (now?.sha256 === undefined) {
      // Unverifiable is not trustworthy: treat it as changed so rules on it still fire.
      return { event: "artifact_hash_mismatch", status: "unknown", severity: "warn", message: `pinned artifact ${path} could not be read to verify its sha256`, path, expected };
    }
    if (sameDigest(expected, now.sha256)) {
      return { event: "artifact_match", status: "ok", severity: "info", message: `pinned artifact ${path} is unchanged`, path, expected, actual: now.sha256 };
    }
    return { event: "artifact_hash_mismatch", status: "drift", severity: "warn", message: `pinned artifact ${path} has changed (sha256 differs)`, path, expected, actual: now.sha256 };
  });
}

function sameDigest(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function short(sha: string): string {
  return /^[0-9a-f]{12,}$/i.test(sha) ? sha.slice(0, 12) : sha;
}
