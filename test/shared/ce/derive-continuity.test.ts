import { describe, expect, it } from "vitest";
import { continuityWarnings, machineLocalPaths } from "../../../shared/ce/continuity.js";
import { deriveSummary, deriveTitle } from "../../../shared/ce/derive.js";
import { resumeCommand } from "../../../shared/ce/resume-command.js";

describe("title and summary defaults", () => {
  it.each([
    ["# Auth refactor\n\nToken refresh is half done. Tests fail.", "Auth refactor", "Token refresh is half done."],
    ["Intro line without heading. More.\n\n## Later", "Intro line without heading.", "Intro line without heading."],
    ["```\n# not a title\n```\n## Real **title** ##\n- first item! rest", "Real title", "first item!"],
    ["<!-- # hidden -->\n# Shown", "Shown", undefined],
    ["   \n\n", undefined, undefined],
  ])("%j", (body, title, summary) => {
    expect(deriveTitle(body)).toBe(title);
    expect(deriveSummary(body)).toBe(summary);
  });

  it("truncates long text at a word with an ellipsis", () => {
    const title = deriveTitle(`# ${"word ".repeat(40)}`)!;
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title.endsWith("word…")).toBe(true);
  });
});

describe("continuity warnings", () => {
  const clean = { branch: "main", head: "a".repeat(40), detached: false, dirty: 0, upstream: "origin/main", ahead: 0 };
  it.each([
    ["outside git", undefined, ["no_git"]],
    ["clean and pushed", clean, []],
    ["dirty", { ...clean, dirty: 3 }, ["dirty_tree"]],
    ["detached", { ...clean, detached: true, branch: undefined, upstream: undefined, ahead: undefined }, ["detached_head"]],
    ["no upstream", { ...clean, upstream: undefined, ahead: undefined }, ["no_upstream"]],
    ["ahead", { ...clean, ahead: 2 }, ["unpushed_commits"]],
    ["no commits", { ...clean, head: undefined, upstream: undefined }, ["no_commits"]],
  ] as const)("%s", (_name, git, codes) => {
    expect(continuityWarnings({ git, body: "# x" }).map((w) => w.code)).toEqual(codes);
  });

  it("finds machine-local paths unless they are labelled", () => {
    expect(machineLocalPaths("see /home/me/notes.txt and `/tmp/x.log`, not src/a.ts or https://h/home/x", [])).toEqual(["/home/me/notes.txt", "/tmp/x.log"]);
    expect(machineLocalPaths("edit /work/repo/src/a.ts. Then /home/me/x, done", ["/work/repo"])).toEqual(["/home/me/x", "/work/repo/src/a.ts"]);
    expect(machineLocalPaths("machine-local: /home/me/notes.txt", [])).toEqual([]);
  });
});

describe("resume command", () => {
  it.each([
    ["/tmp/a.md", "handoff resume '/tmp/a.md'"],
    ["/tmp/it's here.md", "handoff resume '/tmp/it'\\''s here.md'"],
    ["/tmp/$(rm -rf)`x`.md", "handoff resume '/tmp/$(rm -rf)`x`.md'"],
  ])("%s", (path, expected) => {
    expect(resumeCommand(path)).toBe(expected);
  });
});
