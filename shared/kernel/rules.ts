import type { JsonPathSegment } from "./json-path.js";
import { type Report, type Rule, asArray, asRecord, asString, pyTruthy } from "./issues.js";
import { selectorIssues } from "./selector-rules.js";
import { checkRfc3339 } from "../time/timestamps.js";
import { checkRepoPath } from "./checks.js";
import type { NumberLiteral } from "./strict-json.js";

/**
 * The semantic rules of kernel.handoff/v1 (and of the checkpoint, which shares them) that its
 * JSON Schema cannot express, exactly as kernel's reference validator enforces them: it is the
 * contract's oracle (docs/conformance.md lists where RFC 3339 overrides it). A value that is
 * "absent" here is what the reference treats as absent: missing, null, false, 0, "" or empty.
 * Every rule reads the raw value defensively (the schema may have failed) and reports only what
 * it owns. Checks the reference does not make are advisories (advisories.ts): warnings only.
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
  const identity = asRecord(asRecord(value)?.identity);
  if (identity === undefined || identity.created === undefined || identity.created === null) return;
  if (typeof identity.created !== "string") return void report(["identity", "created"], "must be an RFC 3339 timestamp with a time zone");
  const problem = checkRfc3339(identity.created);
  if (problem) report(["identity", "created"], problem);
};

function checkPathField(value: unknown, at: readonly JsonPathSegment[], report: Report): void {
  if (typeof value !== "string") return void report(at, "must be a non-empty repository-relative path");
  const problem = checkRepoPath(value);
  if (problem) report(at, problem);
}

/** A checkpoint that records uncommitted changes pins them (a handoff has no such field). */
export const checkpointPinsDirtyTree: Rule = (value, report) => {
  const provenance = asRecord(asRecord(value)?.provenance);
  if (pyTruthy(provenance?.dirty) && !pyTruthy(provenance?.dirty_tree_sha256)) {
    report(["provenance", "dirty_tree_sha256"], "is required when dirty is true (sha256 of `git diff --binary HEAD`)");
  }
};

/** Pinned artifacts stay inside the repository. */
export const artifactsStayInside: Rule = (value, report) => {
  asArray(asRecord(asRecord(value)?.provenance)?.artifacts).forEach((artifact, i) => {
    const path = asRecord(artifact)?.path;
    if (pyTruthy(path)) checkPathField(path, ["provenance", "artifacts", i, "path"], report);
  });
};

function checkSelector(selector: Record<string, unknown>, at: readonly JsonPathSegment[], report: Report): void {
  for (const issue of selectorIssues(selector)) report([...at, ...issue.at], issue.message);
}

/** Selectors name one source and at most one refinement; their paths stay inside. */
export const selectorsAreWellFormed: Rule = (value, report) => {
  const context = asRecord(asRecord(value)?.context);
  if (context === undefined) return;
  for (const list of ["required", "optional"] as const) {
    asArray(context[list]).forEach((item, i) => {
      const selector = asRecord(item);
      if (selector !== undefined) checkSelector(selector, ["context", list, i], report);
    });
  }
};

/**
 * The budget is bounded: target <= max, and bounded or sealed modes name a max. Integers are
 * compared exactly, even beyond 2^53, from their literal text.
 */
export function budgetIsBounded(numbers: readonly NumberLiteral[] = []): Rule {
  const exact = (key: string, fallback: number): bigint | number => {
    const literal = numbers.find((n) => n.at.length === 3 && n.at[0] === "context" && n.at[1] === "budget" && n.at[2] === key)?.literal;
    return literal !== undefined && /^-?\d+$/.test(literal) ? BigInt(literal) : fallback;
  };
  return (value, report) => {
    const context = asRecord(asRecord(value)?.context);
    const budget = asRecord(context?.budget);
    const max = budget?.max_tokens;
    const target = budget?.target_tokens;
    const mode = asString(asRecord(context?.policy)?.mode);
    if (typeof max === "number" && typeof target === "number" && exact("target_tokens", target) > exact("max_tokens", max)) {
      report(["context", "budget", "target_tokens"], `(${target}) must not exceed max_tokens (${max})`);
    }
    if ((mode === "bounded" || mode === "sealed") && (max === undefined || max === null)) {
      report(["context", "budget", "max_tokens"], `is required when policy.mode is ${mode}`);
    }
  };
}

/** Invalidation rules name kernel events and phases that exist. */
export const invalidationIsTyped: Rule = (value, report) => {
  const workflow = asRecord(asRecord(value)?.workflow);
  const names = new Set(asArray(workflow?.phases).map((phase) => asRecord(phase)?.name));
  asArray(workflow?.invalidation_rules).forEach((item, i) => {
    const rule = asRecord(item);
    if (rule === undefined) return;
    const event = asRecord(rule.when)?.event;
    if (typeof event !== "string" || !KERNEL_EVENT_SET.has(event)) {
      report(["workflow", "invalidation_rules", i, "when", "event"], `${typeof event === "string" ? `'${event}'` : "is missing or"} not a kernel event; use one of ${KERNEL_EVENTS.join(", ")}`);
    }
    asArray(rule.invalidates).forEach((target, j) => {
      if (!names.has(target)) {
        report(["workflow", "invalidation_rules", i, "invalidates", j], `names phase ${JSON.stringify(target)}, which is not in workflow.phases`);
      }
    });
  });
};

/** A path_exists preflight names a path inside the repository. */
export const preflightPathsStayInside: Rule = (value, report) => {
  asArray(asRecord(asRecord(value)?.runtime)?.preflight).forEach((item, i) => {
    const check = asRecord(item);
    if (check?.check !== "path_exists") return;
    const at: JsonPathSegment[] = ["runtime", "preflight", i, "path"];
    if (!pyTruthy(check.path)) report(at, "is required for a path_exists check: a non-empty repository-relative path");
    else checkPathField(check.path, at, report);
  });
};

/** Numbers written with a fraction or an exponent are not integers, whatever their value. */
export function integersAreLexical(numbers: readonly NumberLiteral[]): Rule {
  return (_value, report) => {
    for (const { at, literal } of numbers) {
      if (/[.eEN]/.test(literal)) report(at, `must be an integer written without a fraction or exponent, not ${literal}`);
    }
  };
}

/** Every rule of kernel.handoff/v1, in the order they are documented. */
export function kernelHandoffRules(numbers: readonly NumberLiteral[] = []): Rule[] {
  return [integersAreLexical(numbers), createdIsRfc3339, artifactsStayInside, selectorsAreWellFormed, budgetIsBounded(numbers), invalidationIsTyped, preflightPathsStayInside];
}

/** The rules of kernel.checkpoint/v1: the handoff's, and a dirty checkpoint pins its tree. */
export function kernelCheckpointRules(numbers: readonly NumberLiteral[] = []): Rule[] {
  return [...kernelHandoffRules(numbers), checkpointPinsDirtyTree];
}

/**
 * The repository paths kernel's reference checks, where it checks them (selector paths and
 * artifact paths that are present, every path_exists preflight path), so the client can resolve
 * each on disk: the reference rejects one that leads outside the repository through a symlink.
 *
 * @example
 * ```ts
 * contractPaths({ provenance: { artifacts: [{ path: "docs/a.md" }] } }) // [{ at: ["provenance", "artifacts", 0, "path"], path: "docs/a.md" }]
 * ```
 */
export function contractPaths(value: unknown): { at: JsonPathSegment[]; path: string }[] {
  const out: { at: JsonPathSegment[]; path: string }[] = [];
  const add = (path: unknown, at: JsonPathSegment[]) => {
    if (typeof path === "string" && path !== "" && checkRepoPath(path) === undefined) out.push({ at, path });
  };
  const doc = asRecord(value);
  const context = asRecord(doc?.context);
  for (const list of ["required", "optional"] as const) {
    asArray(context?.[list]).forEach((item, i) => {
      add(asRecord(item)?.path, ["context", list, i, "path"]);
    });
  }
  asArray(asRecord(doc?.provenance)?.artifacts).forEach((item, i) => {
    add(asRecord(item)?.path, ["provenance", "artifacts", i, "path"]);
  });
  asArray(asRecord(doc?.runtime)?.preflight).forEach((item, i) => {
    if (asRecord(item)?.check === "path_exists") add(asRecord(item)?.path, ["runtime", "preflight", i, "path"]);
  });
  return out;
}
