import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyseRegex, grepMatcher, grepWindows, MAX_GREP_MATCHES } from "../../../shared/context/grep.js";
import { type ContextSelector, type Piece, resolveSelector, selectorProblem, selectorSummary, type SelectorSource, estimateTokens } from "../../../shared/context/selector.js";

const CONTRACT = readFileSync(new URL("../../fixtures/resume/contract.md", import.meta.url), "utf8");
const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");

type Expect = Pick<Piece, "outcome" | "text"> & { note?: string | RegExp };

function check(selector: ContextSelector, source: SelectorSource, expected: Expect): void {
  const piece = resolveSelector({ reason: "because", ...selector }, source);
  expect(piece.outcome).toBe(expected.outcome);
  expect(piece.text).toBe(expected.text);
  expect(piece.reason).toBe("because");
  expect(piece.estimated_tokens).toBe(estimateTokens(expected.text));
  if (expected.note instanceof RegExp) expect(piece.note).toMatch(expected.note);
  else expect(piece.note).toBe(expected.note);
}

describe("resolveSelector: whole files and sources", () => {
  it.each<{ name: string; selector: ContextSelector; source: SelectorSource; expected: Expect }>([
    { name: "whole file", selector: { path: "a.md" }, source: { text: "hello\n" }, expected: { outcome: "resolved", text: "hello\n" } },
    { name: "empty file", selector: { path: "a.md" }, source: { text: "  \n" }, expected: { outcome: "empty", text: "  \n", note: "file is empty" } },
    { name: "missing file", selector: { path: "a.md" }, source: { missing: true }, expected: { outcome: "missing", text: "", note: "file missing" } },
    {
      name: "missing with the client's reason",
      selector: { path: "a.md" },
      source: { missing: true, note: "not a regular file" },
      expected: { outcome: "missing", text: "", note: "not a regular file" },
    },
    { name: "forbidden is never read", selector: { path: "a.md" }, source: { forbidden: true, text: "secret" }, expected: { outcome: "invalid", text: "", note: "forbidden" } },
    { name: "git diff", selector: { git_diff: "a..b" }, source: { diff: "diff --git a/x b/x\n+1" }, expected: { outcome: "resolved", text: "diff --git a/x b/x\n+1" } },
    { name: "git diff without changes", selector: { git_diff: "a..b" }, source: { diff: "" }, expected: { outcome: "empty", text: "", note: "no changes between the revisions" } },
    { name: "git diff of unknown revisions", selector: { git_diff: "a..zzz" }, source: {}, expected: { outcome: "missing", text: "", note: "diff unavailable (unknown revision?)" } },
  ])("$name", ({ selector, source, expected }) => check(selector, source, expected));
});

describe("resolveSelector: lines", () => {
  it.each<{ lines: string; expected: Expect }>([
    { lines: "2-3", expected: { outcome: "resolved", text: "line 2\nline 3" } },
    { lines: "1-1", expected: { outcome: "resolved", text: "line 1" } },
    // One rule with validate: a range is exactly "A-B", no spaces (shared/kernel/selector-rules.ts).
    { lines: " 9 - 10 ", expected: { outcome: "resolved", text: "line 9\nline 10" } },
    { lines: "8-30", expected: { outcome: "resolved", text: "line 8\nline 9\nline 10", note: "lines 8-30 requested, the file has 10 lines: clamped to 8-10" } },
    { lines: "11-12", expected: { outcome: "empty", text: "", note: "lines 11-12 requested, the file has 10 lines" } },
    { lines: "0-3", expected: { outcome: "invalid", text: "", note: /lines must be "A-B"/ } },
    { lines: "5-2", expected: { outcome: "invalid", text: "", note: /1 <= A <= B/ } },
    { lines: "abc", expected: { outcome: "invalid", text: "", note: /got "abc"/ } },
  ])("lines $lines", ({ lines, expected }) => check({ path: "a.txt", lines }, { text: `${TEN}\n` }, expected));

  it("counts CRLF lines the same", () => {
    check({ path: "a.txt", lines: "2-2" }, { text: "a\r\nb\r\nc\r\n" }, { outcome: "resolved", text: "b" });
  });
});

describe("resolveSelector: heading", () => {
  const section7 = [
    "## 7. Files to modify",
    "",
    "- docs/MIGRATION-8.md",
    "- README.md",
    "",
    "### 7.1 Details",
    "",
    "Nested detail stays in section 7.",
    "",
    "```markdown",
    "## 12. Commit plan",
    "This is inside a fence and is not the heading.",
    "```",
  ].join("\n");
  it.each<{ name: string; heading: string; expected: Expect }>([
    { name: "to the next heading of the same level, nested levels and fenced heading included", heading: "## 7. Files to modify", expected: { outcome: "resolved", text: section7 } },
    { name: "the real heading, not the one quoted in a fence", heading: "## 12. Commit plan", expected: { outcome: "resolved", text: "## 12. Commit plan\n\n1. docs commit\n2. release commit" } },
    { name: "a nested heading ends at a higher level", heading: "### 7.1 Details", expected: { outcome: "resolved", text: section7.slice(section7.indexOf("### 7.1")) } },
    { name: "a level-1 heading runs to the end", heading: "# Appendix", expected: { outcome: "resolved", text: "# Appendix\n\nClosing text." } },
    {
      name: "case and spacing differences match, with a note",
      heading: "##   12.  commit PLAN",
      expected: { outcome: "resolved", text: "## 12. Commit plan\n\n1. docs commit\n2. release commit", note: "heading matched ignoring case and spacing" },
    },
    { name: "text without # matches any level", heading: "Appendix", expected: { outcome: "resolved", text: "# Appendix\n\nClosing text." } },
    { name: "the level must match", heading: "### 12. Commit plan", expected: { outcome: "missing", text: "", note: "heading not found" } },
    { name: "missing heading", heading: "## 99. Nope", expected: { outcome: "missing", text: "", note: "heading not found" } },
    { name: "empty section", heading: "## 8. Empty section", expected: { outcome: "empty", text: "## 8. Empty section", note: "the section has no content" } },
  ])("$name", ({ heading, expected }) => check({ path: "contract.md", heading }, { text: CONTRACT }, expected));
});

describe("resolveSelector: grep", () => {
  const text = ["alpha", "beta TODO one", "gamma", "delta", "epsilon", "zeta", "eta TODO two", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi TODO three"].join("\n");
  it.each<{ name: string; grep: string; context?: number; expected: Expect }>([
    { name: "default context 3, overlapping windows merge", grep: "TODO", expected: { outcome: "resolved", text: text.split("\n").slice(0, 14).join("\n"), note: "3 matching lines; lines 1-14" } },
    {
      name: "context 1 keeps windows apart",
      grep: "TODO",
      context: 1,
      expected: {
        outcome: "resolved",
        text: ["alpha", "beta TODO one", "gamma", "--", "zeta", "eta TODO two", "theta", "--", "nu", "xi TODO three"].join("\n"),
        note: "3 matching lines; lines 1-3, 6-8, 13-14",
      },
    },
    { name: "touching windows merge", grep: "gamma|epsilon", context: 0, expected: { outcome: "resolved", text: "gamma\n--\nepsilon", note: "2 matching lines; lines 3-3, 5-5" } },
    { name: "adjacent matches merge", grep: "^(gamma|delta)$", context: 0, expected: { outcome: "resolved", text: "gamma\ndelta", note: "2 matching lines; lines 3-4" } },
    { name: "regex", grep: "^(beta|xi) ", context: 0, expected: { outcome: "resolved", text: "beta TODO one\n--\nxi TODO three", note: "2 matching lines; lines 2-2, 14-14" } },
    {
      name: "invalid regex is a literal",
      grep: "TODO one(",
      context: 0,
      expected: { outcome: "empty", text: "", note: "no line matches; pattern matched as literal text (not a valid regular expression)" },
    },
    { name: "no match", grep: "omega", expected: { outcome: "empty", text: "", note: "no line matches" } },
    { name: "context is clamped", grep: "alpha", context: 1000, expected: { outcome: "resolved", text, note: "1 matching line; lines 1-14; context clamped to 100" } },
  ])("$name", ({ grep, context, expected }) => check({ path: "a.txt", grep, ...(context === undefined ? {} : { context }) }, { text }, expected));

  it("a literal fallback still finds the text", () => {
    check(
      { path: "a.txt", grep: "f(x", context: 0 },
      { text: "a\ny = f(x\nb" },
      { outcome: "resolved", text: "y = f(x", note: "1 matching line; lines 2-2; pattern matched as literal text (not a valid regular expression)" },
    );
  });

  it("pathological patterns run as literals and finish", () => {
    const evil = "a".repeat(5000) + "!";
    const lines = Array.from({ length: 200 }, () => evil).join("\n");
    for (const grep of ["(a+)+$", "(a|aa)*b", "(a*)*b", "(?:a+){2,}$", "(\\w+\\s?)+$", "(.*a){12}"]) {
      const piece = resolveSelector({ path: "x", grep }, { text: lines });
      expect(piece.outcome).toBe("empty");
      expect(piece.note).toMatch(/matched as literal text \((nested quantifiers|more than 2 quantifiers)/);
    }
  });

  it("a costly but allowed pattern stops at the step budget instead of running on", () => {
    const long = "x".repeat(1000);
    const lines = Array.from({ length: 1000 }, () => long);
    const matcher = grepMatcher(".*y.*z");
    expect(matcher.mode).toBe("regex");
    const result = grepWindows(lines, matcher, 0);
    expect(result.stopped).toBe("step budget");
    expect(result.matches).toBe(0);
  });

  it("stops after the match limit", () => {
    const lines = Array.from({ length: MAX_GREP_MATCHES + 50 }, (_, i) => `hit ${i}`);
    const piece = resolveSelector({ path: "x", grep: "hit", context: 0 }, { text: lines.join("\n") });
    expect(piece.note).toMatch(new RegExp(`stopped after ${MAX_GREP_MATCHES} matching lines`));
    expect(piece.text.split("\n")).toHaveLength(MAX_GREP_MATCHES);
  });

  it.each([
    ["TODO|FIXME", undefined, 0],
    ["^\\s*export (async )?function", undefined, 2],
    ["a+?b", undefined, 1],
    ["(a+)?", undefined, 2],
    ["[(+*]", undefined, 0],
    ["\\(a+\\)+", undefined, 2],
    ["(a+)+", "nested quantifiers can backtrack exponentially", 1],
    ["((ab)*c)+", "nested quantifiers can backtrack exponentially", 1],
    ["(x|y)+", "nested quantifiers can backtrack exponentially", 0],
    ["(a)\\1", "backreferences are not allowed", 0],
    [".*.*.*x", "more than 2 quantifiers", 3],
  ])("analyseRegex(%s)", (pattern, unsafe, quantifiers) => {
    const result = analyseRegex(pattern);
    expect(result.unsafe).toBe(unsafe);
    if (unsafe === undefined || unsafe.startsWith("more")) expect(result.quantifiers).toBe(quantifiers);
  });
});

describe("selectorProblem and selectorSummary", () => {
  it.each<[unknown, string | undefined]>([
    [{ path: "a.md" }, undefined],
    [{ git_diff: "a..b" }, undefined],
    [{}, "selector needs exactly one of path or git_diff (a non-empty string)"],
    [{ path: "a", git_diff: "a..b" }, "selector has both path and git_diff; a selector takes exactly one"],
    [{ path: "a", lines: "1-2", grep: "x" }, "selector combines lines and grep; a selector takes at most one refinement"],
    [{ git_diff: "a..b", lines: "1-2" }, "selector lines refines a file and needs path"],
    // As kernel's reference judges: context without grep, and an empty grep, are not errors.
    [{ path: "a", context: 2 }, undefined],
    [{ path: "a", grep: "" }, undefined],
    [{ path: "/etc/passwd" }, "path is absolute; give a path relative to the repository root"],
    [{ path: "C:\\x" }, undefined], // a relative name with a colon, as the reference reads it
    [{ path: "docs/../../x" }, "path climbs out of the repository with '..'"],
    [{ path: "docs/../README.md" }, undefined],
    [
      { git_diff: "--output=x" },
      "git_diff must be a revision or a range like main..HEAD or main...HEAD~2, each side starting with a letter or digit and made of letters, digits and . _ / @ { } ^ ~ + -",
    ],
    [{ path: 3 }, "selector is malformed at path: Invalid input: expected string, received number"],
    [{ path: "a", grep: "x", context: -1 }, "selector is malformed at context: Too small: expected number to be >=0"],
  ])("%j -> %s", (selector, problem) => {
    expect(selectorProblem(selector)).toBe(problem);
  });

  it.each<[ContextSelector, string]>([
    [{ path: "a.md" }, "a.md"],
    [{ path: "a.md", lines: "1-30" }, "a.md lines 1-30"],
    [{ path: "a.md", heading: "## X" }, 'a.md heading "## X"'],
    [{ path: "a.md", grep: "TODO" }, 'a.md grep "TODO" context 3'],
    [{ path: "a.md", grep: "TODO", context: 0 }, 'a.md grep "TODO" context 0'],
    [{ git_diff: "v1..v2" }, "git_diff v1..v2"],
  ])("summary %j", (selector, summary) => {
    expect(selectorSummary(selector)).toBe(summary);
  });
});
