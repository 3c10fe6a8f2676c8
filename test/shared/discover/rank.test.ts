import { describe, expect, it } from "vitest";
import { describeAge } from "../../../shared/discover/age.js";
import { candidateFrontmatter, type CandidateMeta, rankCandidates, type RankQuery, relevant } from "../../../shared/discover/rank.js";
import { normaliseRepository, sameCommit } from "../../../shared/discover/repo-identity.js";

const NOW = Date.parse("2026-07-10T12:00:00Z");
const HOUR = 3_600_000;
const ROOT = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b";

function candidate(path: string, frontmatter: CandidateMeta["frontmatter"], ageHours = 1): CandidateMeta {
  const fileName = path.split("/").pop() ?? path;
  return { path, fileName, indexed: frontmatter !== undefined, mtimeMs: NOW - ageHours * HOUR, ...(frontmatter ? { frontmatter } : {}) };
}

function created(ageHours: number): string {
  return new Date(NOW - ageHours * HOUR).toISOString();
}

const query = (keywords: string[], current: Partial<RankQuery["current"]> = {}): RankQuery => ({
  keywords,
  now: NOW,
  current: { cwd: "/work/app", ...current },
});

describe("rankCandidates: order", () => {
  const auth = candidate("/s/auth.md", { title: "Auth token refresh", summary: "Refresh flow", keywords: ["auth", "tokens"], created_at: created(5) });
  const authOld = candidate("/s/auth-old.md", { title: "Old notes", summary: "mentions authentication", keywords: ["misc"], created_at: created(500) });
  const billing = candidate("/s/billing.md", { title: "Billing export", summary: "CSV export", keywords: ["billing"], created_at: created(1) });
  const unindexed = candidate("/s/auth-scratch.md", undefined, 2);

  const cases: { name: string; candidates: CandidateMeta[]; query: RankQuery; order: string[]; irrelevant?: string[] }[] = [
    {
      name: "title hit beats summary prefix hit; non-matching is irrelevant",
      candidates: [billing, authOld, auth],
      query: query(["auth"]),
      order: ["/s/auth.md", "/s/auth-old.md", "/s/billing.md"],
      irrelevant: ["/s/billing.md"],
    },
    {
      name: "diacritics and case fold ('AUTH', 'Résumé')",
      candidates: [billing, candidate("/s/r.md", { title: "Résumé parser", created_at: created(3) })],
      query: query(["resume"]),
      order: ["/s/r.md", "/s/billing.md"],
      irrelevant: ["/s/billing.md"],
    },
    {
      name: "unindexed candidate ranks by file name",
      candidates: [billing, unindexed],
      query: query(["scratch"]),
      order: ["/s/auth-scratch.md", "/s/billing.md"],
      irrelevant: ["/s/billing.md"],
    },
    {
      name: "without keywords recency ranks and everything is relevant",
      candidates: [authOld, auth, billing],
      query: query([]),
      order: ["/s/billing.md", "/s/auth.md", "/s/auth-old.md"],
    },
    {
      name: "without keywords repo affinity beats recency",
      candidates: [billing, candidate("/s/mine.md", { title: "Mine", repo_root_sha: ROOT, created_at: created(48) })],
      query: query([], { repo_root_sha: ROOT }),
      order: ["/s/mine.md", "/s/billing.md"],
    },
    {
      name: "ties break by recency then path",
      candidates: [
        candidate("/s/b.md", { title: "Same", created_at: created(2) }),
        candidate("/s/a.md", { title: "Same", created_at: created(2) }),
        candidate("/s/c.md", { title: "Same", created_at: created(1) }),
      ],
      query: query(["same"]),
      order: ["/s/c.md", "/s/a.md", "/s/b.md"],
    },
    {
      name: "all keywords matched beats one keyword matched",
      candidates: [candidate("/s/one.md", { title: "auth", created_at: created(1) }), candidate("/s/both.md", { title: "auth cache", created_at: created(1) })],
      query: query(["auth", "cache"]),
      order: ["/s/both.md", "/s/one.md"],
    },
  ];

  it.each(cases)("$name", ({ candidates, query: q, order, irrelevant = [] }) => {
    const ranked = rankCandidates(candidates, q);
    expect(ranked.map((c) => c.path)).toEqual(order);
    expect(ranked.filter((c) => !relevant(c)).map((c) => c.path)).toEqual(irrelevant);
  });

  it("is deterministic regardless of input order", () => {
    const list = [auth, authOld, billing, unindexed];
    const first = rankCandidates(list, query(["auth"]));
    const second = rankCandidates([...list].reverse(), query(["auth"]));
    expect(second).toEqual(first);
  });
});

describe("rankCandidates: reasons", () => {
  const cases: { name: string; candidate: CandidateMeta; query: RankQuery; reasons: string[] }[] = [
    {
      name: "title, keywords, overlap, repository root, age",
      candidate: candidate("/s/x.md", { title: "Auth refresh", keywords: ["auth"], repo_root_sha: ROOT, created_at: created(2) }),
      query: query(["auth"], { repo_root_sha: ROOT }),
      reasons: ["title matches 'auth'", "keywords include 'auth'", "keywords overlap: 'auth' (1 of 1)", "same repository (root 1a2b3c4d)", "created 2 hours ago"],
    },
    {
      name: "repository name, branch, worktree, same cwd",
      candidate: candidate("/s/x.md", {
        title: "T",
        repository: "https://git.example/org/app.git",
        branch: "main",
        worktree_path: "/work/app-wt/",
        cwd: "/work/app",
        created_at: created(30),
      }),
      query: query([], { repository: "git.example/org/app", branch: "main", worktree_path: "/work/app-wt" }),
      reasons: ["same repository (https://git.example/org/app.git)", "same branch 'main'", "same worktree", "same working directory", "created 1 day ago"],
    },
    {
      name: "cwd in a parent directory",
      candidate: candidate("/s/x.md", { title: "T", cwd: "/work", created_at: created(0.5) }),
      query: query([]),
      reasons: ["captured in a parent directory (/work)", "created 30 minutes ago"],
    },
    {
      name: "cwd in a subdirectory",
      candidate: candidate("/s/x.md", { title: "T", cwd: "/work/app/src", created_at: created(0) }),
      query: query([]),
      reasons: ["captured in a subdirectory (/work/app/src)", "created just now"],
    },
    {
      name: "cwd elsewhere in the checkout",
      candidate: candidate("/s/x.md", { title: "T", cwd: "/repo/pkg/b", created_at: created(0) }),
      query: query([], { cwd: "/repo/pkg/a", toplevel: "/repo" }),
      reasons: ["captured inside this checkout", "created just now"],
    },
    {
      name: "unindexed: labelled, file name, location, mtime",
      candidate: candidate(`/root/ce-handoff/app-${ROOT.slice(0, 12)}/fix-login.md`, undefined, 24 * 14),
      query: query(["login"], { repo_root_sha: ROOT }),
      reasons: ["unindexed: no frontmatter, ranked by file name and age only", "file name matches 'login'", "stored in this repository's handoff folder", "modified 2 weeks ago"],
    },
    {
      name: "summary and resume focus prefix matches",
      candidate: candidate("/s/x.md", { title: "T", summary: "migrations pending", resume_focus: "finish migrations", created_at: created(1) }),
      query: query(["migr"]),
      reasons: ["resume focus matches 'migr'", "summary matches 'migr'", "created 1 hour ago"],
    },
    {
      name: "no keyword hit",
      candidate: candidate("/s/x.md", { title: "Billing", created_at: created(1) }),
      query: query(["auth"]),
      reasons: ["no keyword matches"],
    },
    {
      name: "unparseable created_at falls back to mtime",
      candidate: candidate("/s/x.md", { title: "T", created_at: "yesterday-ish" }, 3),
      query: query([]),
      reasons: ["modified 3 hours ago"],
    },
  ];

  it.each(cases)("$name", ({ candidate: c, query: q, reasons }) => {
    const [ranked] = rankCandidates([c], q);
    expect(ranked?.reasons).toEqual(reasons);
  });

  it("ignores frontmatter of an unindexed candidate", () => {
    const c: CandidateMeta = { path: "/s/x.md", fileName: "x.md", indexed: false, mtimeMs: NOW, frontmatter: { title: "auth" } };
    expect(relevant(rankCandidates([c], query(["auth"]))[0] ?? { score: 0 })).toBe(false);
  });

  it("repository root beats repository name beats nothing", () => {
    const ranked = rankCandidates(
      [
        candidate("/s/none.md", { title: "T", created_at: created(1) }),
        candidate("/s/name.md", { title: "T", repository: "org/app", created_at: created(1) }),
        candidate("/s/root.md", { title: "T", repo_root_sha: ROOT.slice(0, 12), created_at: created(1) }),
      ],
      query([], { repo_root_sha: ROOT, repository: "org/app" }),
    );
    expect(ranked.map((c) => c.path)).toEqual(["/s/root.md", "/s/name.md", "/s/none.md"]);
  });
});

describe("candidateFrontmatter", () => {
  it.each([
    { data: { title: "A", keywords: ["k", 3, "j"], cwd: 7 }, expected: { title: "A", keywords: ["k", "j"] } },
    { data: "not an object", expected: {} },
    { data: { summary: "s", extra: { nested: true } }, expected: { summary: "s" } },
  ])("picks string fields from $data", ({ data, expected }) => {
    expect(candidateFrontmatter(data)).toEqual(expected);
  });
});

describe("helpers", () => {
  it.each([
    [0, "just now"],
    [59_999, "just now"],
    [60_000, "1 minute ago"],
    [2 * HOUR + 5, "2 hours ago"],
    [36 * HOUR, "1 day ago"],
    [15 * 24 * HOUR, "2 weeks ago"],
    [400 * 24 * HOUR, "1 year ago"],
  ])("describeAge(%i) = %s", (ms, text) => {
    expect(describeAge(ms)).toBe(text);
  });

  it.each([
    ["1a2b3c4d5e6f", "1A2B3C4", true],
    ["1a2b3c", "1a2b3c4d", false],
    ["abcdef0", "abcdef1", false],
  ])("sameCommit(%s, %s) = %s", (a, b, same) => {
    expect(sameCommit(a, b)).toBe(same);
  });

  it.each([
    ["https://user@git.example/Org/App.git/", "git.example/org/app"],
    ["ssh://git@git.example/org/app", "git.example/org/app"],
    ["app", "app"],
  ])("normaliseRepository(%s)", (input, output) => {
    expect(normaliseRepository(input)).toBe(output);
  });
});
