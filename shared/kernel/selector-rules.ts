import { checkGitDiff, checkRepoPath } from "./checks.js";
import { pyTruthy } from "./issues.js";

/**
 * The rules of a kernel context selector, defined once, as kernel's reference judges them:
 * `handoff validate` reports them as manifest issues and `handoff context` refuses a selector for
 * the same reasons, so a manifest that validates never has a selector that context calls invalid.
 *
 * @example
 * ```ts
 * selectorIssues({ path: "docs/../README.md" }) // []
 * selectorIssues({ path: "../x" }) // [{ at: ["path"], message: "climbs out of the repository with '..'" }]
 * ```
 */

export type SelectorField = "path" | "git_diff";

export interface SelectorIssue {
  /** The field at fault, or [] for the selector as a whole. */
  at: SelectorField[];
  message: string;
}

export function selectorIssues(selector: Record<string, unknown>): SelectorIssue[] {
  const issues: SelectorIssue[] = [];
  const report = (at: SelectorField[], message: string) => issues.push({ at, message });
  const hasPath = pyTruthy(selector.path);
  const hasDiff = pyTruthy(selector.git_diff);
  if (hasPath === hasDiff) report([], hasPath ? "has both path and git_diff; a selector takes exactly one" : "needs exactly one of path or git_diff (a non-empty string)");
  const refinements = (["lines", "heading", "grep"] as const).filter((key) => pyTruthy(selector[key]));
  if (refinements.length > 1) report([], `combines ${refinements.join(" and ")}; a selector takes at most one refinement`);
  if (refinements.length > 0 && !hasPath) report([], `${refinements.join(", ")} refines a file and needs path`);
  if (hasDiff && (typeof selector.git_diff !== "string" || checkGitDiff(selector.git_diff) !== undefined)) {
    report(["git_diff"], typeof selector.git_diff === "string" ? checkGitDiff(selector.git_diff)! : "must be a revision or a range like main..HEAD");
  }
  if (hasPath) {
    const problem = typeof selector.path === "string" ? checkRepoPath(selector.path) : "must be a non-empty repository-relative path";
    if (problem) report(["path"], problem);
  }
  return issues;
}

/**
 * A repository path with `.` and `..` resolved and separators made `/`; call it only on a path
 * `selectorIssues` accepts. Forbidden globs and reads see this form, so `docs/../secrets/k`
 * is judged as `secrets/k`.
 *
 * @example
 * ```ts
 * normalizeRepoPath("./docs/../README.md") // "README.md"
 * ```
 */
export function normalizeRepoPath(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split(/[\\/]/)) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
}
