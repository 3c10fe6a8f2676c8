import { checkGitDiff, checkRepoPath, parseLineRange } from "./kernel/checks.js";

/**
 * The rules of a kernel context selector, defined once: `handoff validate` reports them as
 * manifest issues and `handoff context` refuses a selector for the same reasons, so a manifest
 * that validates never has a selector that context calls invalid, and the reverse.
 *
 * @example
 * ```ts
 * selectorIssues({ path: "docs/../README.md" }) // []
 * selectorIssues({ path: "a.md", lines: " 9 - 10 " }) // [{ at: ["lines"], message: "must be a line range ..." }]
 * ```
 */

export type SelectorField = "path" | "lines" | "heading" | "grep" | "context" | "git_diff";

export interface SelectorIssue {
  /** The field at fault, or [] for the selector as a whole. */
  at: SelectorField[];
  message: string;
}

const REFINEMENTS = ["lines", "heading", "grep"] as const;

export function selectorIssues(selector: Record<string, unknown>): SelectorIssue[] {
  const issues: SelectorIssue[] = [];
  const report = (at: SelectorField[], message: string) => issues.push({ at, message });
  const hasPath = selector.path !== undefined;
  const hasDiff = selector.git_diff !== undefined;
  if (hasPath === hasDiff) report([], hasPath ? "has both path and git_diff; a selector takes exactly one" : "needs exactly one of path or git_diff");
  const refinements = REFINEMENTS.filter((key) => selector[key] !== undefined);
  if (refinements.length > 1) report([], `combines ${refinements.join(" and ")}; a selector takes at most one refinement`);
  if (refinements.length > 0 && !hasPath) report([], `${refinements.join(", ")} refines a file and needs path`);
  if (typeof selector.path === "string") {
    const problem = checkRepoPath(selector.path);
    if (problem) report(["path"], problem);
  }
  if (typeof selector.lines === "string" && parseLineRange(selector.lines) === undefined) {
    report(["lines"], "must be a line range 'A-B' with 1 <= A <= B, like '1-30'");
  }
  if (selector.heading === "") report(["heading"], "is empty; give the heading text, like '## Plan'");
  if (selector.grep === "") report(["grep"], "is empty; give a pattern to search for");
  if (selector.context !== undefined) {
    if (selector.grep === undefined) report(["context"], "only applies to a grep selector");
    if (typeof selector.context === "number" && selector.context < 0) report(["context"], "must be 0 or more");
  }
  if (typeof selector.git_diff === "string") {
    const problem = checkGitDiff(selector.git_diff);
    if (problem) report(["git_diff"], problem);
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
