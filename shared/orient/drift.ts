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
export type HandoffEvent = "repository_mismatch" | "repo_root_mismatch" | "worktree_missing" | "path_missing" | "path_remapped";

export type DriftEvent = KernelEvent | HandoffEvent;

export interface RecordedState {
  repository?: string;
  repo_root_sha?: string;
  branch?: string;
  head?: string;
  dirty?: boolean;
  dirty_tree_sha256?: string;
  worktree_path?: string;
  /** The capture folder (ce-handoff `cwd`): the sender's worktree when worktree_path is absent. */
  cwd?: string;
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
   * "behind" = HEAD is an ancestor of the recorded commit (a fast-forward away); "diverged" =
   * neither, including a commit this clone cannot reach; "unknown" = HEAD or git itself cannot
   * be read. Kernel's reference has only advanced/diverged: "behind" is a case of its diverged.
   */
  headRelation: "same" | "advanced" | "behind" | "diverged" | "unknown";
  /** With "diverged": the recorded commit is not in this clone at all. */
  headUnreachable?: boolean;
  advancedBy?: number;
  /** With "behind": commits HEAD lacks. */
  behindBy?: number;
  /** The remote a fetch would get the recorded commit from: the one tracking the recorded branch, else the only or `origin`. */
  fetchRemote?: string;
  /**
   * Where the recorded branch exists here when HEAD is not on it: a local branch, or only as
   * remote-tracking branches (their remotes), and whether it holds the recorded commit.
   */
  recordedBranch?: { local: boolean; remotes: string[]; holdsHead: boolean };
  dirty?: boolean;
  dirty_tree_sha256?: string;
  /** undefined: not checked. */
  worktreeExists?: boolean;
  /** Repository-relative paths named in the body that do not exist now. */
  missingPaths: string[];
  /**
   * Set when the repository matches but the sender's worktree is another absolute path: its
   * machine-local paths under it, mapped into this checkout and checked there.
   */
  remapped?: { from: string; to: string; paths: { path: string; mapped: string; missing: boolean }[] };
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
  /** A command that resolves this drift, when there is one (shown to the user, never run). */
  fix?: string;
  /**
   * Which case of the event this is, when one event name covers several (kernel's reference calls
   * a commit not fetched, one HEAD is behind, and a rewritten history all commit_diverged).
   */
  case?: DriftCase;
}

/**
 * The cases the diagnosis tells apart; docs/resume.md has the table (message, command, exit).
 * not_fetched: the recorded commit is not in this clone; behind: HEAD is an ancestor of it;
 * other_branch / remote_branch: the recorded branch (local, or only on a remote) holds it;
 * diverged: none of these, history rewritten or another line of work.
 */
export type DriftCase = "not_fetched" | "behind" | "other_branch" | "remote_branch" | "diverged";

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
    ...[...new Set(observed.missingPaths)].sort().map(
      (path): DriftItem => ({
        event: "path_missing",
        status: "drift",
        severity: "warn",
        message: `${path} is named in the handoff but does not exist in this checkout`,
        path,
      }),
    ),
    ...remapDrift(recorded, observed),
  ];
  return options.kernel ? items.map((item) => (KERNEL_HARD.has(item.event) && item.status !== "ok" ? { ...item, severity: "hard" } : item)) : items;
}

/**
 * The events kernel's reference `divergence` treats as hard ("diverged": resume stops, exit 1)
 * for a kernel manifest or checkpoint, whatever the case (its invalidation rules and exit code key
 * on them). A ce-handoff keeps them as warnings, apart from commit_diverged in its "diverged"
 * case: a commit not fetched yet, a HEAD behind it, or the work on another branch each has a
 * command that resolves it, so they are warnings that carry it (docs/resume.md says why).
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
  const where = observed.recordedBranch;
  const fix = where && (where.local || where.remotes.length > 0) ? switchCommand(expected, where) : undefined;
  const elsewhere = where?.local
    ? ` (it exists here; switch with: ${fix})`
    : where && where.remotes.length > 0
      ? ` (it exists only on remote ${where.remotes.map((r) => `'${r}'`).join(", ")}; switch with: ${fix})`
      : "";
  return [
    {
      event: "branch_diverged",
      status: "drift",
      severity: "warn",
      message: `on branch '${observed.branch}', the handoff recorded '${expected}'${elsewhere}`,
      expected,
      actual: observed.branch,
      ...(fix ? { fix, case: where?.local ? "other_branch" : "remote_branch" } : {}),
    },
  ];
}

/** `git switch <branch>`, which creates a tracking branch from the one remote that has it; with several, which one. */
function switchCommand(branch: string, where: { local: boolean; remotes: string[] }): string {
  if (where.local || where.remotes.length === 1) return `git switch ${shellWord(branch)}`;
  return `git switch --track ${shellWord(`${where.remotes[0] ?? "origin"}/${branch}`)}`;
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
    case "behind":
    case "diverged":
      return [divergedCommit(recorded, observed, base)];
    case "unknown":
      return [
        {
          event: "commit_unknown",
          status: "unknown",
          severity: "warn",
          message: observed.inGit
            ? `cannot tell how HEAD relates to the recorded commit ${short(expected)} (git could not answer)`
            : `not inside a git repository; the handoff recorded commit ${short(expected)}`,
          ...base,
        },
      ];
  }
}

/**
 * commit_diverged, the one event kernel's reference has for a HEAD that does not contain the
 * recorded commit, told apart by case so the message names the reason and the command that
 * resolves it. Only a truly diverged history is hard for a ce-handoff: fetch, switch and
 * fast-forward are warnings with their command (kernel sources make them all hard, as its reference).
 */
function divergedCommit(recorded: RecordedState, observed: ObservedState, base: { expected: string; actual?: string }): DriftItem {
  const expected = short(base.expected);
  const head = short(base.actual ?? "?");
  const item = (diagnosis: DriftCase, severity: DriftItem["severity"], message: string, fix?: string): DriftItem => ({
    event: "commit_diverged",
    status: "drift",
    severity,
    message,
    case: diagnosis,
    ...(fix ? { fix } : {}),
    ...base,
  });
  if (observed.headUnreachable) {
    const fix = observed.fetchRemote ? `git fetch ${shellWord(observed.fetchRemote)}` : undefined;
    return item(
      "not_fetched",
      "warn",
      fix
        ? `not fetched: the recorded commit ${expected} is not in this clone yet (HEAD is ${head}); fetch it, then resume again: ${fix}`
        : `not fetched: the recorded commit ${expected} is not in this clone (HEAD is ${head}), and no remote is configured to fetch it from; fetch from where the handoff's author pushed`,
      fix,
    );
  }
  const where = observed.recordedBranch;
  if (where?.holdsHead && recorded.branch && observed.branch !== recorded.branch) {
    const fix = switchCommand(recorded.branch, where);
    const diagnosis: DriftCase = where.local ? "other_branch" : "remote_branch";
    const place = where.local ? `branch '${recorded.branch}' here holds it` : `branch '${recorded.branch}' on remote '${where.remotes[0]}' holds it`;
    return item(
      diagnosis,
      "warn",
      `on another branch: HEAD ${head} on '${observed.branch ?? "detached HEAD"}' does not contain the recorded commit ${expected}, but ${place}; switch to it with: ${fix}`,
      fix,
    );
  }
  if (observed.headRelation === "behind") {
    const by = observed.behindBy === undefined ? "" : ` by ${observed.behindBy} commit${observed.behindBy === 1 ? "" : "s"}`;
    const fix = `git merge --ff-only ${expected}`;
    return item("behind", "warn", `behind${by}: HEAD ${head} is an ancestor of the recorded commit ${expected}, which this clone has; fast-forward with: ${fix}`, fix);
  }
  return item(
    "diverged",
    "hard",
    `diverged: HEAD ${head} does not contain the recorded commit ${expected}, and neither is an ancestor of the other (history rewritten or another line of work); reconcile by hand, e.g. git log --oneline --graph ${expected} HEAD`,
  );
}

function dirtyDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  const items: DriftItem[] = [];
  if (recorded.dirty !== undefined && observed.dirty !== undefined) {
    const describe = (dirty: boolean) => (dirty ? "uncommitted changes" : "a clean tree");
    items.push(
      recorded.dirty === observed.dirty
        ? { event: "dirty_match", status: "ok", severity: "info", message: `${describe(observed.dirty)}, as recorded`, expected: recorded.dirty, actual: observed.dirty }
        : {
            event: "dirty_changed",
            status: "drift",
            severity: "warn",
            message: `the handoff recorded ${describe(recorded.dirty)}; the checkout now has ${describe(observed.dirty)}`,
            expected: recorded.dirty,
            actual: observed.dirty,
          },
    );
  }
  if (recorded.dirty_tree_sha256) {
    const expected = recorded.dirty_tree_sha256;
    const actual = observed.dirty_tree_sha256;
    // A clean tree now means the recorded uncommitted changes are gone: a mismatch, not unknown.
    if (actual !== undefined || observed.dirty === false) {
      items.push(
        actual !== undefined && sameDigest(expected, actual)
          ? { event: "dirty_tree_hash_match", status: "ok", severity: "info", message: "uncommitted changes are byte-identical to the recorded ones", expected, actual }
          : {
              event: "dirty_tree_hash_mismatch",
              status: "drift",
              severity: "warn",
              message: actual === undefined ? "the recorded uncommitted changes are gone (the tree is clean)" : "uncommitted changes differ from the recorded ones",
              expected,
              ...(actual === undefined ? {} : { actual }),
            },
      );
    }
  }
  return items;
}

function worktreeDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  // Another clone of the same repository at another path is not a lost worktree: remapDrift says it.
  if (!recorded.worktree_path || observed.worktreeExists !== false || observed.remapped) return [];
  return [
    {
      event: "worktree_missing",
      status: "drift",
      severity: "warn",
      message: `the recorded worktree ${recorded.worktree_path} no longer exists; its machine-local state (uncommitted or ignored files) is gone`,
      path: recorded.worktree_path,
    },
  ];
}

function remapDrift(recorded: RecordedState, observed: ObservedState): DriftItem[] {
  const map = observed.remapped;
  // Said when it changes something: paths to map, or a recorded worktree not reported missing.
  if (!map || (map.paths.length === 0 && !recorded.worktree_path)) return [];
  const count = map.paths.length;
  const example = map.paths[0] ? ` (${map.paths[0].path} is read here as ${map.paths[0].mapped})` : "";
  const items: DriftItem[] = [
    {
      event: "path_remapped",
      status: "drift",
      severity: "info",
      message: `the handoff was written in ${map.from}; this checkout of the same repository is ${map.to}: ${count} machine-local path${count === 1 ? "" : "s"} under it ${count === 1 ? "is" : "are"} mapped here${example}`,
      expected: map.from,
      actual: map.to,
    },
  ];
  for (const path of map.paths.filter((p) => p.missing)) {
    items.push({
      event: "path_missing",
      status: "drift",
      severity: "warn",
      message: `${path.mapped} (written as ${path.path}) does not exist in this checkout`,
      path: path.mapped,
      expected: path.path,
    });
  }
  return items;
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

/** A branch name as one shell word: quoted only when it holds something a shell would read. */
function shellWord(name: string): string {
  return /^[A-Za-z0-9._/-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}
