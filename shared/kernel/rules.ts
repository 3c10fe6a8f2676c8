import type { JsonPathSegment } from "./json-path.js";
import { type Report, type Rule, asArray, asRecord, asString } from "./issues.js";
import { selectorIssues } from "../selector-rules.js";
import { checkCommitSha, checkRepoPath, checkRfc3339, checkSha256 } from "./checks.js";

/**
 * The semantic rules of kernel.handoff/v1 that its JSON Schema cannot express, as the reference
 * validator enforces them. Every rule reads the raw value defensively (the schema may have
 * failed) and reports only what it owns, so type errors are said once, by the schema.
 */

/** The typed divergence events an invalidation rule may name (`when.event`). */
export const KERNEL_EVENTS = [
  "branch_unknown",
  "branch_match",
  "branch_diverged",
  "commit_match",
  "commit_advanced",
  "commit_diverged",
  "commit_unknown",
  "dirty_match",
  "dirty_changed",
  "dirty_tree_hash_match",
  "dirty_tree_hash_mismatch",
  "artifact_missing",
  "artifact_match",
  "artifact_hash_mismatch",
] as const;

export type KernelEvent = (typeof KERNEL_EVENTS)[number];

const KERNEL_EVENT_SET: ReadonlySet<string> = new Set(KERNEL_EVENTS);

/** identity.created is a strict RFC 3339 timestamp with a zone. */
export const createdIsRfc3339: Rule = (value, report) => {
  const created = asString(asRecord(asRecord(value)?.identity)?.created);
  if (created === undefined) return;
  const problem = checkRfc3339(created);
  if (problem) report(["identity", "created"], problem);
};

/** Commit, dirty-tree hash and pinned artifacts are what drift is measured against. */
export const provenanceIsPinned: Rule = (value, report) => {
  const provenance = asRecord(asRecord(value)?.provenance);
  if (provenance === undefined) return;
  const commit = asString(provenance.commit);
  if (commit !== undefined) {
    const problem = checkCommitSha(commit);
    if (problem) report(["provenance", "commit"], problem);
  }
  const dirtyTree = provenance.dirty_tree_sha256;
  if (provenance.dirty === true && dirtyTree === undefined) {
    report(["provenance", "dirty_tree_sha256"], "is required when dirty is true (sha256 of `git diff --binary HEAD`)");
  } else if (typeof dirtyTree === "string") {
    const problem = checkSha256(dirtyTree, { lowercase: true });
    if (problem) report(["provenance", "dirty_tree_sha256"], problem);
  }
  asArray(provenance.artifacts).forEach((artifact, i) => {
    const entry = asRecord(artifact);
    const at: JsonPathSegment[] = ["provenance", "artifacts", i];
    checkPathField(entry?.path, [...at, "path"], report);
    const sha = asString(entry?.sha256);
    if (sha !== undefined) {
      const problem = checkSha256(sha);
      if (problem) report([...at, "sha256"], problem);
    }
  });
};

function checkPathField(value: unknown, at: readonly JsonPathSegment[], report: Report): void {
  const path = asString(value);
  if (path === undefined) return;
  const problem = checkRepoPath(path);
  if (problem) report(at, problem);
}

function checkSelector(selector: Record<string, unknown>, at: readonly JsonPathSegment[], report: Report): void {
  for (const issue of selectorIssues(selector)) report([...at, ...issue.at], issue.message);
}

/** Selectors, budget and policy: the attention budget must be resolvable and bounded. */
export const contextIsResolvable: Rule = (value, report) => {
  const context = asRecord(asRecord(value)?.context);
  if (context === undefined) return;
  for (const list of ["required", "optional"] as const) {
    asArray(context[list]).forEach((item, i) => {
      const selector = asRecord(item);
      if (selector !== undefined) checkSelector(selector, ["context", list, i], report);
    });
  }
  const mode = asString(asRecord(context.policy)?.mode);
  const budget = asRecord(context.budget);
  const max = budget?.max_tokens;
  const target = budget?.target_tokens;
  if ((mode === "bounded" || mode === "sealed") && max === undefined) {
    report(["context", "budget", "max_tokens"], `is required when policy.mode is ${mode}`);
  }
  if (typeof max === "number" && typeof target === "number" && target > max) {
    report(["context", "budget", "target_tokens"], `(${target}) must not exceed max_tokens (${max})`);
  }
};

/** Phases are named once; rules and the entry phase refer only to phases that exist. */
export const workflowIsConsistent: Rule = (value, report) => {
  const manifest = asRecord(value);
  const workflow = asRecord(manifest?.workflow);
  const names = new Set<string>();
  asArray(workflow?.phases).forEach((phase, i) => {
    const name = asString(asRecord(phase)?.name);
    if (name === undefined) return;
    if (name === "") report(["workflow", "phases", i, "name"], "is empty");
    else if (names.has(name)) report(["workflow", "phases", i, "name"], `'${name}' is used by an earlier phase; phase names must be unique`);
    names.add(name);
  });
  asArray(workflow?.invalidation_rules).forEach((item, i) => {
    const rule = asRecord(item);
    const event = asString(asRecord(rule?.when)?.event);
    if (event !== undefined && !KERNEL_EVENT_SET.has(event)) {
      report(["workflow", "invalidation_rules", i, "when", "event"], `'${event}' is not a kernel event; use one of ${KERNEL_EVENTS.join(", ")}`);
    }
    asArray(rule?.invalidates).forEach((target, j) => {
      if (typeof target === "string" && !names.has(target)) {
        report(["workflow", "invalidation_rules", i, "invalidates", j], `names phase '${target}', which is not in workflow.phases`);
      }
    });
  });
  const entry = asString(asRecord(manifest?.execution)?.entry_phase);
  if (entry !== undefined && workflow !== undefined && !names.has(entry)) {
    report(["execution", "entry_phase"], `names phase '${entry}', which is not in workflow.phases`);
  }
};

/** Preflight checks carry what they check, and paths stay inside the repository. */
export const preflightIsRunnable: Rule = (value, report) => {
  asArray(asRecord(asRecord(value)?.runtime)?.preflight).forEach((item, i) => {
    const check = asRecord(item);
    if (check === undefined) return;
    const at: JsonPathSegment[] = ["runtime", "preflight", i];
    checkPathField(check.path, [...at, "path"], report);
    if (check.check === "path_exists" && check.path === undefined) report([...at, "path"], "is required for a path_exists check");
    if (check.check === "current_branch" && check.expected === undefined) report([...at, "expected"], "is required for a current_branch check");
    if (check.check === "argv" && (check.argv === undefined || (Array.isArray(check.argv) && check.argv.length === 0))) report([...at, "argv"], "is required for an argv check and must not be empty");
  });
};

/** Every rule of kernel.handoff/v1, in the order they are documented. */
export const KERNEL_HANDOFF_RULES: readonly Rule[] = [
  createdIsRfc3339,
  provenanceIsPinned,
  contextIsResolvable,
  workflowIsConsistent,
  preflightIsRunnable,
];
