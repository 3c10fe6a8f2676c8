import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { matchGlob } from "../../../shared/repo/glob.js";
import { KERNEL_EVENTS } from "../../../shared/kernel/rules.js";
import { computeDrift, type DriftItem, hasHardDivergence, type ObservedState, type RecordedState } from "../../../shared/orient/drift.js";
import { applyInvalidationRules, type InvalidationRuleLike, type PhaseLike } from "../../../shared/orient/invalidate.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const ROOT = "1".repeat(40);
const H1 = "c".repeat(64);
const H2 = "d".repeat(64);

const observed = (over: Partial<ObservedState> = {}): ObservedState => ({
  inGit: true,
  branch: "main",
  head: A,
  headRelation: "same",
  missingPaths: [],
  artifacts: [],
  ...over,
});

/** event/status/severity triples: what a reader of the drift report sees first. */
const summary = (items: DriftItem[]) => items.map((i) => `${i.event}:${i.status}:${i.severity}${i.path ? `:${i.path}` : ""}`);

describe("computeDrift", () => {
  const cases: { name: string; recorded: RecordedState; observed: ObservedState; expected: string[]; hard?: boolean }[] = [
    { name: "nothing recorded, nothing to compare", recorded: {}, observed: observed(), expected: [] },
    { name: "branch match, commit match", recorded: { branch: "main", head: A }, observed: observed(), expected: ["branch_match:ok:info", "commit_match:ok:info"] },
    { name: "abbreviated recorded head matches", recorded: { head: A.slice(0, 12) }, observed: observed({ headRelation: "unknown" }), expected: ["commit_match:ok:info"] },
    { name: "branch switched", recorded: { branch: "feat/x" }, observed: observed(), expected: ["branch_diverged:drift:warn"] },
    { name: "detached HEAD: branch unknown", recorded: { branch: "main" }, observed: observed({ branch: undefined }), expected: ["branch_unknown:unknown:warn"] },
    { name: "HEAD advanced", recorded: { head: A }, observed: observed({ head: B, headRelation: "advanced", advancedBy: 3 }), expected: ["commit_advanced:drift:warn"] },
    { name: "HEAD diverged (rebased)", recorded: { head: A }, observed: observed({ head: B, headRelation: "diverged" }), expected: ["commit_diverged:drift:hard"], hard: true },
    { name: "recorded commit unknown here", recorded: { head: A }, observed: observed({ head: B, headRelation: "unknown" }), expected: ["commit_unknown:unknown:warn"] },
    {
      name: "outside git",
      recorded: { repository: "org/app", branch: "main", head: A },
      observed: { inGit: false, headRelation: "unknown", missingPaths: [], artifacts: [] },
      expected: ["repository_mismatch:unknown:warn", "branch_unknown:unknown:warn", "commit_unknown:unknown:warn"],
    },
    { name: "another repository (root commit)", recorded: { repo_root_sha: ROOT }, observed: observed({ repo_root_sha: "2".repeat(40) }), expected: ["repo_root_mismatch:drift:hard"], hard: true },
    { name: "same root, abbreviated", recorded: { repo_root_sha: ROOT.slice(0, 12) }, observed: observed({ repo_root_sha: ROOT }), expected: [] },
    { name: "repository name differs", recorded: { repository: "org/app" }, observed: observed({ repository: "org/other" }), expected: ["repository_mismatch:drift:warn"] },
    { name: "repository spelled differently but the same", recorded: { repository: "https://git.example/org/app.git" }, observed: observed({ repository: "git.example/Org/App" }), expected: [] },
    { name: "dirty as recorded", recorded: { dirty: false }, observed: observed({ dirty: false }), expected: ["dirty_match:ok:info"] },
    { name: "clean became dirty", recorded: { dirty: false }, observed: observed({ dirty: true }), expected: ["dirty_changed:drift:warn"] },
    {
      name: "dirty tree identical",
      recorded: { dirty: true, dirty_tree_sha256: H1 },
      observed: observed({ dirty: true, dirty_tree_sha256: H1.toUpperCase() }),
      expected: ["dirty_match:ok:info", "dirty_tree_hash_match:ok:info"],
    },
    {
      name: "dirty tree edited",
      recorded: { dirty: true, dirty_tree_sha256: H1 },
      observed: observed({ dirty: true, dirty_tree_sha256: H2 }),
      expected: ["dirty_match:ok:info", "dirty_tree_hash_mismatch:drift:warn"],
    },
    {
      name: "recorded changes gone (tree clean)",
      recorded: { dirty: true, dirty_tree_sha256: H1 },
      observed: observed({ dirty: false }),
      expected: ["dirty_changed:drift:warn", "dirty_tree_hash_mismatch:drift:warn"],
    },
    { name: "dirty tree not observed: no claim", recorded: { dirty_tree_sha256: H1 }, observed: observed(), expected: [] },
    { name: "worktree gone", recorded: { worktree_path: "/w/app-feat" }, observed: observed({ worktreeExists: false }), expected: ["worktree_missing:drift:warn:/w/app-feat"] },
    { name: "worktree present", recorded: { worktree_path: "/w/app-feat" }, observed: observed({ worktreeExists: true }), expected: [] },
    {
      name: "artifacts: unchanged, edited, deleted, unreadable (in recorded order)",
      recorded: {
        artifacts: [
          { path: "a.md", sha256: H1 },
          { path: "b.md", sha256: H1 },
          { path: "c.md", sha256: H1 },
          { path: "d.md", sha256: H1 },
        ],
      },
      observed: observed({
        artifacts: [
          { path: "d.md", missing: false },
          { path: "c.md", missing: true },
          { path: "b.md", sha256: H2, missing: false },
          { path: "a.md", sha256: H1, missing: false },
        ],
      }),
      expected: ["artifact_match:ok:info:a.md", "artifact_hash_mismatch:drift:warn:b.md", "artifact_missing:drift:warn:c.md", "artifact_hash_mismatch:unknown:warn:d.md"],
    },
    {
      name: "paths named in the body that are gone (sorted, once)",
      recorded: {},
      observed: observed({ missingPaths: ["z.ts", "a/b.ts", "z.ts"] }),
      expected: ["path_missing:drift:warn:a/b.ts", "path_missing:drift:warn:z.ts"],
    },
  ];

  it.each(cases)("$name", ({ recorded, observed: seen, expected, hard = false }) => {
    const items = computeDrift(recorded, seen);
    expect(summary(items)).toEqual(expected);
    expect(hasHardDivergence(items)).toBe(hard);
    for (const item of items) expect(item.message.length).toBeGreaterThan(10);
  });

  it("names the commits and the count in its messages", () => {
    const [item] = computeDrift({ head: A }, observed({ head: B, headRelation: "advanced", advancedBy: 1 }));
    expect(item).toMatchObject({ expected: A, actual: B, message: `HEAD advanced by 1 commit since ${A.slice(0, 12)} (the recorded commit is an ancestor)` });
  });

  it("uses exactly the kernel event names", () => {
    expect(KERNEL_EVENTS).toEqual([
      "branch_unknown",
      "branch_match",
      "branch_diverged",
      "commit_match",
      "commit_advanced",
      "commit_diverged",
      "commit_unknown",
      "dirty_match",
      "dirty_changed",
      "dirty_tree_hash_match",
      "dirty_tree_hash_mismatch",
      "artifact_missing",
      "artifact_match",
      "artifact_hash_mismatch",
    ]);
  });
});

describe("applyInvalidationRules with the real manifest", () => {
  const manifest = JSON.parse(readFileSync(new URL("../../fixtures/resume/example.yaml-skill-unification-2026-07-10.json", import.meta.url), "utf8")) as {
    provenance: { branch: string; commit: string; dirty: boolean; artifacts: { path: string; sha256: string }[] };
    workflow: { phases: PhaseLike[]; invalidation_rules: InvalidationRuleLike[] };
  };
  const { phases, invalidation_rules: rules } = manifest.workflow;
  const recorded: RecordedState = {
    branch: manifest.provenance.branch,
    head: manifest.provenance.commit,
    dirty: manifest.provenance.dirty,
    artifacts: manifest.provenance.artifacts,
  };
  const [contract, schema] = manifest.provenance.artifacts;
  const clean = observed({
    branch: manifest.provenance.branch,
    head: manifest.provenance.commit,
    dirty: false,
    artifacts: manifest.provenance.artifacts.map((a) => ({ path: a.path, sha256: a.sha256, missing: false })),
  });
  const statuses = (list: PhaseLike[]) => Object.fromEntries(list.map((p) => [p.name, p.status]));

  const cases: { name: string; observed: ObservedState; invalidated: string[]; applied: { rule: number; event: string; path?: string }[] }[] = [
    { name: "nothing changed", observed: clean, invalidated: [], applied: [] },
    {
      name: "contract edited: recon and migration",
      observed: {
        ...clean,
        artifacts: [
          { path: contract!.path, sha256: H2, missing: false },
          { path: schema!.path, sha256: schema!.sha256, missing: false },
        ],
      },
      invalidated: ["recon", "migration"],
      applied: [{ rule: 0, event: "artifact_hash_mismatch", path: contract!.path }],
    },
    {
      name: "schema edited: the glob does not match, nothing flips",
      observed: {
        ...clean,
        artifacts: [
          { path: contract!.path, sha256: contract!.sha256, missing: false },
          { path: schema!.path, sha256: H2, missing: false },
        ],
      },
      invalidated: [],
      applied: [],
    },
    {
      name: "contract deleted: artifact_missing is not artifact_hash_mismatch",
      observed: {
        ...clean,
        artifacts: [
          { path: contract!.path, missing: true },
          { path: schema!.path, sha256: schema!.sha256, missing: false },
        ],
      },
      invalidated: [],
      applied: [],
    },
    {
      name: "branch switched: four phases",
      observed: { ...clean, branch: "main" },
      invalidated: ["recon", "runtime", "migration", "state_skills"],
      applied: [{ rule: 1, event: "branch_diverged" }],
    },
    {
      name: "both",
      observed: {
        ...clean,
        branch: "main",
        artifacts: [
          { path: contract!.path, sha256: H2, missing: false },
          { path: schema!.path, sha256: schema!.sha256, missing: false },
        ],
      },
      invalidated: ["recon", "runtime", "migration", "state_skills"],
      applied: [
        { rule: 0, event: "artifact_hash_mismatch", path: contract!.path },
        { rule: 1, event: "branch_diverged" },
      ],
    },
  ];

  it.each(cases)("$name", ({ observed: seen, invalidated, applied }) => {
    const before = structuredClone(phases);
    const result = applyInvalidationRules(phases, rules, computeDrift(recorded, seen), matchGlob);
    expect(phases).toEqual(before);
    const expected = Object.fromEntries(phases.map((p) => [p.name, invalidated.includes(p.name) ? "invalidated" : p.status]));
    expect(statuses(result.phases)).toEqual(expected);
    expect(result.applied.map(({ rule, event, path }) => ({ rule, event, ...(path ? { path } : {}) }))).toEqual(applied);
    expect(result.phases.find((p) => p.name === "recon")?.evidence).toBe(phases[0]?.evidence);
  });
});

describe("applyInvalidationRules semantics", () => {
  const phases: PhaseLike[] = [
    { name: "a", status: "inherited" },
    { name: "b", status: "required" },
    { name: "c", status: "inherited" },
  ];
  const item = (event: DriftItem["event"], status: DriftItem["status"], path?: string): DriftItem => ({ event, status, severity: "info", message: "m", ...(path ? { path } : {}) });
  const cases: { name: string; rules: InvalidationRuleLike[]; drift: DriftItem[]; statuses: string[]; applied: number }[] = [
    {
      name: "an ok event that occurred fires its rule",
      rules: [{ when: { event: "branch_match" }, invalidates: ["a"] }],
      drift: [item("branch_match", "ok")],
      statuses: ["invalidated", "required", "inherited"],
      applied: 1,
    },
    {
      name: "an event that did not occur does not",
      rules: [{ when: { event: "commit_diverged" }, invalidates: ["a"] }],
      drift: [item("commit_match", "ok")],
      statuses: ["inherited", "required", "inherited"],
      applied: 0,
    },
    {
      name: "required phases stay required, unknown names ignored",
      rules: [{ when: { event: "dirty_changed" }, invalidates: ["b", "zzz", "c"] }],
      drift: [item("dirty_changed", "drift")],
      statuses: ["inherited", "required", "invalidated"],
      applied: 1,
    },
    {
      name: "a glob never matches an event without a path",
      rules: [{ when: { event: "branch_diverged", path_glob: "*" }, invalidates: ["a"] }],
      drift: [item("branch_diverged", "drift")],
      statuses: ["inherited", "required", "inherited"],
      applied: 0,
    },
    {
      name: "one applied entry per matching event",
      rules: [{ when: { event: "artifact_missing", path_glob: "docs/*" }, invalidates: ["a"] }],
      drift: [item("artifact_missing", "drift", "docs/x.md"), item("artifact_missing", "drift", "src/y.ts"), item("artifact_missing", "drift", "docs/z.md")],
      statuses: ["invalidated", "required", "inherited"],
      applied: 2,
    },
    {
      name: "unknown-status events occur too",
      rules: [{ when: { event: "commit_unknown" }, invalidates: ["c"] }],
      drift: [item("commit_unknown", "unknown")],
      statuses: ["inherited", "required", "invalidated"],
      applied: 1,
    },
  ];
  it.each(cases)("$name", ({ rules, drift, statuses, applied }) => {
    const result = applyInvalidationRules(phases, rules, drift, matchGlob);
    expect(result.phases.map((p) => p.status)).toEqual(statuses);
    expect(result.applied).toHaveLength(applied);
  });
});
