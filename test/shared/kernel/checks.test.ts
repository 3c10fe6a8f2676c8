import { describe, expect, it } from "vitest";
import { checkCommitSha, checkGitDiff, checkPortablePath, checkRepoPath, checkRfc3339, checkSha256, parseLineRange } from "../../../shared/kernel/checks.js";

describe("checkRfc3339", () => {
  it.each([
    "2026-07-10T21:45:00Z",
    "2026-07-10T21:45:00.123456Z",
    "2026-07-10T23:45:00+02:00",
    "2026-07-10T16:15:00-05:30",
    "2024-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    "2016-12-31T23:59:60Z",
    "2017-01-01T00:59:60+01:00",
    "2016-12-31T18:59:60-05:00",
    "0000-01-01T00:00:00Z",
    "2026-07-10T21:45:00.123456789012Z",
  ])("accepts %s", (text) => expect(checkRfc3339(text)).toBeUndefined());

  it.each([
    ["2026-07-10T21:45:00", /with a time zone/],
    ["2026-07-10 21:45:00Z", /RFC 3339/],
    ["2026-07-10", /RFC 3339/],
    ["2026-07-10T21:45Z", /RFC 3339/],
    ["2026-7-10T21:45:00Z", /RFC 3339/],
    ["2026-07-10T21:45:00+0200", /RFC 3339/],
    ["2026-07-10T21:45:00.Z", /RFC 3339/],
    [" 2026-07-10T21:45:00Z", /RFC 3339/],
    ["2026-13-01T00:00:00Z", /not a calendar date/],
    ["2026-00-01T00:00:00Z", /not a calendar date/],
    ["2026-02-30T00:00:00Z", /not a calendar date/],
    ["2025-02-29T00:00:00Z", /not a calendar date/],
    ["1900-02-29T00:00:00Z", /not a calendar date/],
    ["2026-04-31T00:00:00Z", /not a calendar date/],
    ["2026-07-00T00:00:00Z", /not a calendar date/],
    ["2026-07-10T24:00:00Z", /not a time of day/],
    ["2026-07-10T23:60:00Z", /not a time of day/],
    ["2026-07-10T23:59:61Z", /not a time of day/],
    ["2026-07-10T23:59:59+24:00", /offset is out of range/],
    ["2026-07-10T23:59:59+02:60", /offset is out of range/],
    ["2026-07-10T23:59:59+00:99", /offset is out of range/],
    ["2026-07-10t21:45:00Z", /upper-case/],
    ["2026-07-10T21:45:00z", /upper-case/],
    ["2026-07-10T23:59:60Z", /leap second/],
    ["2016-12-31T22:59:60Z", /leap second/],
    ["2016-12-31T23:59:60+01:00", /leap second/],
  ])("rejects %s", (text, message) => expect(checkRfc3339(text)).toMatch(message));
});

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

  it.each(["0-3", "3-1", "1", "1-", "-3", "a-b", " 1-2", "1 - 2", "01-2", "1-2-3", "1-9999999999"])("rejects %j", (text) =>
    expect(parseLineRange(text)).toBeUndefined(),
  );
});

describe("checkGitDiff (kernel's reference grammar)", () => {
  it.each(["HEAD", "main..HEAD", "v1.2.0...feat/x", "HEAD~3..HEAD^", "HEAD@{1}..HEAD", "12397de..f80b215", "a-b..c_d", "v1+build", "a.b"])(
    "accepts %s",
    (text) => expect(checkGitDiff(text)).toBeUndefined(),
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
