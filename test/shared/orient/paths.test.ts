import { describe, expect, it } from "vitest";
import { MAX_REFERENCED_PATHS, scanPaths } from "../../../shared/orient/paths.js";

describe("scanPaths", () => {
  const cases: { name: string; body: string; relative: string[]; absolute?: string[] }[] = [
    { name: "backticked path with a slash, no extension", body: "see `scripts/release` now", relative: ["scripts/release"] },
    { name: "plain path with a known extension", body: "edited client/cli/main.ts, then README.md.", relative: ["client/cli/main.ts", "README.md"] },
    { name: "plain slash words are prose", body: "and/or read/write input/output", relative: [] },
    { name: "plain trailing slash is a folder", body: "everything under node_modules/ and docs/", relative: ["node_modules/", "docs/"] },
    { name: "leading ./ and line suffixes", body: "./src/a.ts:12 and `src/b.ts:3:9` and src/c.ts#L10-L20", relative: ["src/a.ts", "src/b.ts", "src/c.ts"] },
    { name: "URLs are not paths", body: "https://x.dev/a/b.md and www.example.com/x.html and mailto:a@b.md", relative: [] },
    { name: "absolute and home paths are machine-local", body: "log at /tmp/run.log, notes in ~/notes.md, C:\\work\\a.ts", relative: [], absolute: ["/tmp/run.log", "~/notes.md", "C:\\work\\a.ts"] },
    { name: "globs are not paths", body: "`src/**/*.ts` and frontend/* and file?.md and {a,b}.ts", relative: [] },
    { name: "versions are not paths", body: "ce-handoff/v1, kernel.handoff/v1, 1.2.3, v8.0.0, `release/v2.1`", relative: [] },
    { name: "escapes are not repository paths", body: "../outside.ts and `a/../../b.ts`", relative: [] },
    { name: "product names are not files", body: "runs on Node.js and Next.js", relative: [] },
    { name: "known bare names", body: "the Makefile and .gitignore", relative: ["Makefile", ".gitignore"] },
    { name: "markdown links", body: "[the doc](docs/api.md) and [site](https://x.dev)", relative: ["docs/api.md"] },
    { name: "scoped packages and emails", body: "`@types/node` and dev@example.com", relative: [] },
    { name: "commands in code spans are not paths", body: "ran `npm test -- src/a.ts`", relative: [] },
    { name: "fenced blocks are skipped", body: "```diff\n--- a/src/x.ts\n+++ b/src/x.ts\n```\nafter: src/y.ts", relative: ["src/y.ts"] },
    { name: "duplicates once, first-mention order", body: "b.md a.md `b.md` a.md", relative: ["b.md", "a.md"] },
  ];
  it.each(cases)("$name", ({ body, relative, absolute = [] }) => {
    expect(scanPaths(body)).toEqual({ relative, absolute });
    expect(scanPaths(body).relative).toEqual(relative);
  });

  it("bounds the number of paths", () => {
    const body = Array.from({ length: 1000 }, (_, i) => `src/file-${i}.ts /tmp/f-${i}.log`).join("\n");
    const { relative, absolute } = scanPaths(body);
    expect(relative).toHaveLength(MAX_REFERENCED_PATHS);
    expect(absolute).toHaveLength(MAX_REFERENCED_PATHS);
    expect(relative[0]).toBe("src/file-0.ts");
  });
});
