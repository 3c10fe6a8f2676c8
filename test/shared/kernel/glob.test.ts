import { describe, expect, it } from "vitest";
import { matchGlob } from "../../../shared/repo/glob.js";

describe("matchGlob", () => {
  it.each([
    ["README.md", "README.md", true],
    ["README.md", "readme.md", false],
    ["README.md", "docs/README.md", false],
    ["*.md", "README.md", true],
    ["*.md", "docs/README.md", false],
    ["*", ".obsidian", true],
    ["frontend/*", "frontend/app.ts", true],
    ["frontend/*", "frontend", false],
    ["frontend/*", "frontend/src/app.ts", false],
    [".obsidian/*", ".obsidian/workspace.json", true],
    ["a*b", "ab", true],
    ["a*b", "axxb", true],
    ["a*b", "a/b", false],
    ["a**b", "a/b", false],
    ["?.ts", "a.ts", true],
    ["?.ts", "ab.ts", false],
    ["a?b", "a/b", false],
    ["**", "anything/at/all", true],
    ["**", "", true],
    ["src/**", "src/a.ts", true],
    ["src/**", "src/a/b/c.ts", true],
    ["src/**", "src", false],
    ["src/**", "srcx/a.ts", false],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["**/*.ts", "x/y/a.tsx", false],
    ["src/**/*.test.ts", "src/a.test.ts", true],
    ["src/**/*.test.ts", "src/x/y/a.test.ts", true],
    ["src/**/*.test.ts", "lib/src/a.test.ts", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/b", true],
    ["a/**/b", "a/x/yb", false],
    ["a/**/b", "ab/b", false],
    ["_meta/contracts/yaml-skill-unification-2026-07-10.md", "_meta/contracts/yaml-skill-unification-2026-07-10.md", true],
    ["_meta/contracts/*.md", "_meta/contracts/yaml-skill-unification-2026-07-10.md", true],
    ["[abc].md", "b.md", true],
    ["[abc].md", "d.md", false],
    ["[a-c]x", "bx", true],
    ["[!a-c]x", "bx", false],
    ["[^a-c]x", "dx", true],
    ["[]]x", "]x", true],
    ["a[/]b", "a/b", false],
    ["[abc", "[abc", true],
    ["\\*.md", "*.md", true],
    ["\\*.md", "a.md", false],
    ["a+(b).md", "a+(b).md", true],
    ["a.md", "axmd", false],
    ["./docs/*.md", "docs/a.md", true],
    ["docs/*.md", "./docs/a.md", true],
    ["/docs/*.md", "docs/a.md", true],
    ["ünï/*", "ünï/cödé", true],
    ["*/?", "😀/😀", true],
  ])("%j ~ %j = %s", (pattern, path, expected) => {
    expect(matchGlob(pattern, path)).toBe(expected);
  });

  it.each([
    ["frontend/*", "frontend/src/app.ts", true],
    ["frontend/*", "frontend/app.ts", true],
    ["frontend", "frontend/app.ts", true],
    ["frontend/*", "frontendx/app.ts", false],
    ["*.md", "docs/a.ts", false],
    ["src/*.ts", "src/a.ts/b", true],
  ])("with matchParents: %j ~ %j = %s", (pattern, path, expected) => {
    expect(matchGlob(pattern, path, { matchParents: true })).toBe(expected);
  });

  it("stays fast on patterns that make backtracking matchers explode", () => {
    // A regex or recursive matcher takes exponential time here; the automaton stays polynomial.
    const pattern = `${"*a".repeat(30)}b`;
    const path = "a".repeat(5000);
    expect(matchGlob(pattern, path)).toBe(false);
    const deep = `${"**/".repeat(20)}x`;
    expect(matchGlob(deep, `${"d/".repeat(2000)}y`)).toBe(false);
    expect(matchGlob(deep, `${"d/".repeat(2000)}x`)).toBe(true);
  });
});
