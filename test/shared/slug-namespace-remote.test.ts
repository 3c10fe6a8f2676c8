import { describe, expect, it } from "vitest";
import { repositoryNamespace, sanitizeRepoName } from "../../shared/repo/namespace.js";
import { repoNameFromRemote, stripRemoteCredentials } from "../../shared/repo/remote-url.js";
import { slug } from "../../shared/text/slug.js";

describe("slug", () => {
  it.each([
    ["Auth refactor: token refresh", "auth-refactor-token-refresh"],
    ["Résumé für Straße", "resume-fur-strasse"],
    ["Œuvre Ærø Łódź þing", "oeuvre-aero-lodz-thing"],
    ["日本語のタイトル", "handoff"],
    ["🚀🚀", "handoff"],
    ["", "handoff"],
    [".", "handoff"],
    ["..", "handoff"],
    ["-rf /", "rf"],
    ["--- x ---", "x"],
    ["../../etc/passwd", "etc-passwd"],
    ["CON", "con"],
    ["a".repeat(100), "a".repeat(60)],
    ["word ".repeat(30), "word-word-word-word-word-word-word-word-word-word-word-word"],
  ])("%j -> %j", (title, expected) => {
    const got = slug(title);
    expect(got).toBe(expected);
    expect(got).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(got.length).toBeLessThanOrEqual(60);
  });
});

describe("repository namespace", () => {
  it.each([
    [{ name: "My Repo", rootCommit: "1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E8F9A0B" }, "my-repo-1a2b3c4d5e6f"],
    [{ name: "handoff", rootCommit: undefined }, "general"],
    [{ name: "handoff", rootCommit: "not-hex" }, "general"],
    [undefined, "general"],
  ])("%j -> %s", (repo, expected) => {
    expect(repositoryNamespace(repo)).toBe(expected);
  });

  it.each([
    ["Widget", "widget"],
    ["my.repo_v2", "my.repo_v2"],
    ["..Évil/../name", "evil-name"],
    ["---", "repo"],
    ["..", "repo"],
    ["a b\tc", "a-b-c"],
  ])("sanitizeRepoName(%j) = %j", (name, expected) => {
    expect(sanitizeRepoName(name)).toBe(expected);
    expect(sanitizeRepoName(name)).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
  });
});

describe("remote URL credentials", () => {
  it.each([
    ["https://user:ghp_secret@github.com/o/r.git", "https://github.com/o/r.git"],
    ["https://ghp_secret@github.com/o/r.git", "https://github.com/o/r.git"],
    ["http://x-access-token:tok@host:8080/o/r", "http://host:8080/o/r"],
    ["https://github.com/o/r.git?access_token=tok#frag", "https://github.com/o/r.git"],
    ["ssh://git:pw@host/o/r.git", "ssh://git@host/o/r.git"],
    ["ssh://git@host:2222/o/r.git", "ssh://git@host:2222/o/r.git"],
    ["git@github.com:o/r.git", "git@github.com:o/r.git"],
    ["user:pw@host:o/r.git", "host:o/r.git"],
    ["host:o/r.git", "host:o/r.git"],
    ["/srv/git/r.git", "/srv/git/r.git"],
    ["../sibling", "../sibling"],
    ["file:///srv/git/r.git", "file:///srv/git/r.git"],
  ])("%s -> %s", (remote, expected) => {
    const got = stripRemoteCredentials(remote);
    expect(got).toBe(expected);
    expect(got).not.toMatch(/secret|tok\b|pw/);
  });

  it.each([
    ["https://tok@github.com/acme/Widget.git", "Widget"],
    ["git@github.com:acme/widget", "widget"],
    ["/srv/git/thing.git/", "thing"],
    ["https://host/", "host"],
  ])("repoNameFromRemote(%s) = %s", (remote, expected) => {
    expect(repoNameFromRemote(remote)).toBe(expected);
  });
});
