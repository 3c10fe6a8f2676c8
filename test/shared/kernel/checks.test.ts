import { describe, expect, it } from "vitest";
import { checkCommitSha, checkGitDiff, checkPortablePath, checkRepoPath, checkSha256, parseLineRange } from "../../../shared/kernel/checks.js";

describe("checkRepoPath", () => {
  it.each(["README.md", "docs/a.md", "./docs/a.md", "a/../b", "a/b/../../c", ".", "a/./b", "_meta/contracts/x.md", "dir/", "~notes", "..foo", "...", "a/../..b", "C:\\x", "\\server\\share", "a\nb"])(
    "accepts %j",
    (path) => expect(checkRepoPath(path)).toBeUndefined(),
  );

  it.each([
    ["", /is empty/],
    ["/etc/passwd", /is absolute/],
    ["//x", /is absolute/],
    ["..", /climbs out/],
    ["../x", /climbs out/],
    ["a/../../x", /climbs out/],
    ["./../x", /climbs out/],
    ["a/..", undefined],
    ["a/\0b", /NUL/],
  ])("judges %j", (path, message) => (message === undefined ? expect(checkRepoPath(path)).toBeUndefined() : expect(checkRepoPath(path)).toMatch(message)));
});

describe("checkPortablePath", () => {
  it.each([
    ["C:\\Windows", /drive letter/],
    ["c:/Windows", /drive letter/],
    ["a\\..\\x", /backslash/],
    ["a\nb", /control character/],
    ["docs/a.md", undefined],
  ])("%j", (path, message) => (message === undefined ? expect(checkPortablePath(path)).toBeUndefined() : expect(checkPortablePath(path)).toMatch(message)));
});

describe("parseLineRange", () => {
  it.each([
    ["1-30", { start: 1, end: 30 }],
    ["5-5", { start: 5, end: 5 }],
    ["10-200", { start: 10, end: 200 }],
  ])("parses %s", (text, expected) => expect(parseLineRange(text)).toEqual(expected));

  it.each(["0-3", "3-1", "1", "1-", "-3", "a-b", " 1-2", "1 - 2", "01-2", "1-2-3", "1-9999999999"])("rejects %j", (text) => expect(parseLineRange(text)).toBeUndefined());
});

describe("checkGitDiff (kernel's reference grammar)", () => {
  it.each(["HEAD", "main..HEAD", "v1.2.0...feat/x", "HEAD~3..HEAD^", "HEAD@{1}..HEAD", "12397de..f80b215", "a-b..c_d", "v1+build", "a.b"])("accepts %s", (text) =>
    expect(checkGitDiff(text)).toBeUndefined(),
  );

  it.each(["", "--output=/tmp/x", "-p", "main..-x", "..HEAD", "HEAD..", "a..b..c", "a....b", "main HEAD", "main\tHEAD", "a;rm -rf", "$(id)", "a\nb", "@{u}", "origin/main...@", ".a"])(
    "rejects %j",
    (text) => expect(checkGitDiff(text)).toMatch(/revision or a range/),
  );
});

describe("hashes", () => {
  const sha = "760d41d3f23ce0a7c890d807b327f140dff2bcc28fc3ccf99f0cd459ad0e9177";
  it.each([
    [sha, {}, true],
    [sha.toUpperCase(), {}, true],
    [sha.toUpperCase(), { lowercase: true }, false],
    [sha.slice(1), {}, false],
    [`${sha}0`, {}, false],
    [sha.replace("7", "g"), {}, false],
  ])("checkSha256(%s, %j) ok=%s", (text, options, valid) => expect(checkSha256(text, options) === undefined).toBe(valid));

  it.each([
    ["12397dedd6b82305f0f0703c15cc2b284c5fc49c", true],
    [sha, true],
    ["12397de", false],
    ["HEAD", false],
    ["12397dedd6b82305f0f0703c15cc2b284c5fc49", false],
  ])("checkCommitSha(%s) ok=%s", (text, valid) => expect(checkCommitSha(text) === undefined).toBe(valid));
});
