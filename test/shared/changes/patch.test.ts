import { deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { blobId, decodeBase85Line, deltaResultSize, encodeBase85Lines, zlibStored } from "../../../shared/changes/git-binary.js";
import { parsePatch } from "../../../shared/changes/patch.js";

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const ID = (c: string) => c.repeat(40);

describe("parsePatch: what git apply would touch", () => {
  it.each([
    [
      "a modified text file",
      `diff --git a/x.txt b/x.txt\nindex ${ID("1")}..${ID("2")} 100644\n--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n`,
      { path: "x.txt", from_mode: "100644", to_mode: "100644", binary: false, added_bytes: 2 },
    ],
    [
      "a new executable",
      `diff --git a/run.sh b/run.sh\nnew file mode 100755\nindex 0000000..1111111\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+echo hi\n`,
      { path: "run.sh", from_mode: null, to_mode: "100755", added_bytes: 18 },
    ],
    ["a deletion", `diff --git a/old b/old\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/old\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n`, { path: "old", from_mode: "100644", to_mode: null }],
    ["a mode change alone", "diff --git a/tool b/tool\nold mode 100644\nnew mode 100755\n", { path: "tool", from_mode: "100644", to_mode: "100755", added_bytes: 0 }],
    ["an empty new file", "diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000..e69de29\n", { path: "empty", from_mode: null, to_mode: "100644" }],
    [
      "a symbolic link",
      "diff --git a/docs/latest b/docs/latest\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/docs/latest\n@@ -0,0 +1 @@\n+v2/index.md\n\\ No newline at end of file\n",
      { path: "docs/latest", to_mode: "120000", link_target: "v2/index.md", added_bytes: 11 },
    ],
    [
      "a name with a space (a tab after it on the ---/+++ lines)",
      "diff --git a/my notes b/my notes\nindex 1111111..2222222 100644\n--- a/my notes\t\n+++ b/my notes\t\n@@ -1 +1 @@\n-a\n+b\n",
      { path: "my notes", from_mode: "100644" },
    ],
    [
      "a binary literal",
      `diff --git a/b.bin b/b.bin\nindex ${ID("1")}..${ID("2")} 100644\nGIT binary patch\nliteral 3\n${encodeBase85Lines(zlibStored(new Uint8Array([1, 2, 3]))).join("\n")}\n\nliteral 0\nHcmV?d00001\n\n`,
      {
        path: "b.bin",
        binary: true,
        binary_hunks: [
          { kind: "literal", size: 3 },
          { kind: "literal", size: 0 },
        ],
      },
    ],
  ])("%s", (_name, patch, expected) => {
    const parsed = parsePatch(bytes(patch));
    expect("entries" in parsed && parsed.entries).toMatchObject([expected]);
  });

  it("gives each section its byte range, for the manifest's sizes", () => {
    const one = "diff --git a/a b/a\nold mode 100644\nnew mode 100755\n";
    const two = "diff --git a/b b/b\nold mode 100755\nnew mode 100644\n";
    const parsed = parsePatch(bytes(one + two));
    expect("entries" in parsed && parsed.entries.map((e) => [e.start, e.end])).toEqual([
      [0, one.length],
      [one.length, one.length + two.length],
    ]);
  });

  it.each([
    ["a line before any section", "hello\ndiff --git a/x b/x\nold mode 100644\nnew mode 100755\n", /outside any file's section/],
    ["a quoted name", 'diff --git "a/x\\ty" "b/x\\ty"\nold mode 100644\nnew mode 100755\n', /quoted file name/],
    ["two names (a rename)", "diff --git a/x b/y\nold mode 100644\nnew mode 100755\n", /does not name one file twice/],
    ["rename headers", "diff --git a/x b/x\nsimilarity index 90%\nrename from x\nrename to y\n", /rename or copy/],
    ["a submodule", `diff --git a/sub b/sub\nindex ${ID("1")}..${ID("2")} 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit a\n+Subproject commit b\n`, /submodule/],
    ["a file turned into a link in one section", "diff --git a/x b/x\nold mode 100644\nnew mode 120000\n", /between a file and a symbolic link/],
    ["no mode at all", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", /no mode stated/],
    ["---/+++ naming another file", "diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n", /do not name the same file/],
    ["a hunk longer than its header", "diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n", /belongs to no hunk/],
    ["a hunk shorter than its header", "diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n@@ -1 +1,3 @@\n-a\n+b\n", /shorter than its header/],
    ["a binary change without content", "diff --git a/x b/x\nindex 1111111..2222222 100644\nBinary files a/x and b/x differ\n", /without its content/],
    ["a binary patch without a full index", "diff --git a/x b/x\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 0\nHcmV?d00001\n\n", /without a full index line/],
    ["a broken base85 line", `diff --git a/x b/x\nindex ${ID("1")}..${ID("2")} 100644\nGIT binary patch\nliteral 3\nZ!!!\n\n`, /not git's base85/],
    ["a link without its target", `diff --git a/l b/l\nnew file mode 120000\nindex 0000000..e69de29\n`, /target the patch does not show/],
    ["a patch that does not end with a newline", "diff --git a/x b/x\nold mode 100644\nnew mode 100755", /does not end with a newline/],
  ])("refuses %s", (_name, patch, why) => {
    const parsed = parsePatch(bytes(patch));
    expect("problem" in parsed && parsed.problem.why).toMatch(why);
  });
});

describe("git's binary format pieces", () => {
  it("base85 lines and stored zlib round-trip through what git (zlib) reads", () => {
    const data = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    const lines = encodeBase85Lines(zlibStored(data));
    expect(lines.every((line) => /^[A-Za-z]/.test(line))).toBe(true);
    const decoded = Buffer.concat(lines.map((line) => decodeBase85Line(line)!));
    expect(inflateSync(decoded)).toEqual(Buffer.from(data));
    expect(inflateSync(zlibStored(new Uint8Array(0)))).toEqual(Buffer.alloc(0));
    expect(decodeBase85Line("A~~~~~")).toBeUndefined();
    expect(decodeBase85Line("B0000")).toBeUndefined();
  });

  it("blob ids are git's (SHA-1 and SHA-256)", async () => {
    const text = new TextEncoder().encode("x\n");
    expect(await blobId(text, 40)).toBe("587be6b4c3f93f93c489c0111bba5596147a26cb");
    expect(await blobId(new Uint8Array(0), 40)).toBe("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
    expect(await blobId(new Uint8Array(0), 64)).toBe("473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813");
  });

  it("reads a delta's result size from its header without expanding it", async () => {
    // Source size 10, result size 300,000,000 (base-128, little-endian groups), then one insert op.
    const varint = (n: number): number[] => (n < 128 ? [n] : [0x80 | (n % 128), ...varint(Math.floor(n / 128))]);
    const header = [...varint(10), ...varint(300_000_000), 1, 65];
    expect(await deltaResultSize(deflateSync(Buffer.from(header)))).toBe(300_000_000);
    expect(await deltaResultSize(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});
