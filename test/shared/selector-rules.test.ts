import { describe, expect, it } from "vitest";
import { selectorProblem } from "../../shared/context/selector.js";
import { validateKernelValue } from "../../shared/kernel/validate.js";
import { normalizeRepoPath } from "../../shared/kernel/selector-rules.js";

// Every selector fixture goes to both `handoff validate` (the manifest rules) and `handoff context`
// (selectorProblem, checked before anything is read): both must give the same verdict.
const FIXTURES: unknown[] = [
  { path: "a.md" },
  { path: "docs/../README.md" },
  { path: "./docs/a.md" },
  { path: "docs/../../x" },
  { path: "../outside.md" },
  { path: "/etc/passwd" },
  { path: "C:\\x" },
  { path: "\\\\server\\share" },
  { path: "a\u0001b" },
  { path: "" },
  { path: "a.md", lines: "1-30" },
  { path: "a.md", lines: " 9 - 10 " },
  { path: "a.md", lines: "0-3" },
  { path: "a.md", lines: "5-2" },
  { path: "a.md", lines: "abc" },
  { path: "a.md", heading: "## Plan" },
  { path: "a.md", heading: "" },
  { path: "a.md", grep: "TODO" },
  { path: "a.md", grep: "TODO", context: 0 },
  { path: "a.md", grep: "" },
  { path: "a.md", context: 2 },
  { path: "a.md", lines: "1-2", grep: "x" },
  { git_diff: "main..HEAD" },
  { git_diff: "main...HEAD~2" },
  { git_diff: "--output=x" },
  { git_diff: "a..b", lines: "1-2" },
  { path: "a", git_diff: "a..b" },
  {},
  { path: 3 },
];

const MANIFEST = {
  schema: "kernel.handoff/v1",
  identity: { name: "n", created: "2026-07-10T21:45:00Z" },
  provenance: { branch: "main", commit: "a".repeat(40), dirty: false },
  objective: { goal: "g", success_conditions: [] },
  workflow: { phases: [{ name: "p", status: "required" }] },
  context: { policy: { mode: "advisory" }, required: [] as unknown[] },
  execution: { entry_phase: "p" },
  resume: { prompt: "handoff resume m.json" },
};

describe("one selector rule for validate and context", () => {
  it("the base manifest validates", () => {
    expect(validateKernelValue(MANIFEST).issues).toEqual([]);
  });

  it.each(FIXTURES.map((f) => [JSON.stringify(f), f]))("%s: same verdict from both", (_name, selector) => {
    const validate = validateKernelValue({ ...MANIFEST, context: { ...MANIFEST.context, required: [selector] } });
    const selectorIssues = validate.issues.filter((i) => i.path.startsWith("context.required"));
    const contextProblem = selectorProblem(selector);
    expect(selectorIssues.length === 0, `validate: ${JSON.stringify(selectorIssues)}; context: ${contextProblem}`).toBe(contextProblem === undefined);
  });

  it("normalizes the paths both accept", () => {
    expect(normalizeRepoPath("docs/../README.md")).toBe("README.md");
    expect(normalizeRepoPath("./a//b/./c.md")).toBe("a/b/c.md");
    expect(normalizeRepoPath("a\\b.md")).toBe("a/b.md");
  });
});
