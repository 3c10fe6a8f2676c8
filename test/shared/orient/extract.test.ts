import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifySectionLabel } from "../../../shared/orient/classify.js";
import { assessSufficiency, extractOrientation } from "../../../shared/orient/extract.js";
import { markdownHeadings, splitLines } from "../../../shared/text/markdown.js";
import { emptyOrientation, ORIENTATION_LIMITS, type Orientation, type SourceDocument } from "../../../shared/orient/types.js";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/resume/${name}`, import.meta.url), "utf8");
const MANIFEST = "example.yaml-skill-unification-2026-07-10.json";

/** Our own flat frontmatter: each value is a JSON literal (the ce reader is not under test here). */
function ceDocument(text: string): SourceDocument {
  const [, head = "", body = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
  const metadata = Object.fromEntries(
    head.split("\n").map((line) => {
      const at = line.indexOf(":");
      return [line.slice(0, at), JSON.parse(line.slice(at + 1))];
    }),
  );
  return { format: "ce-handoff/v1", body, metadata };
}

const orientation = (parts: Partial<Orientation>): Orientation => ({ ...emptyOrientation(), ...parts });

describe("extractOrientation", () => {
  const cases: { name: string; doc: () => SourceDocument; expected: Orientation }[] = [
    {
      name: "ce handoff: the contract's example headings, resume_focus appended",
      doc: () => ceDocument(fixture("ce-handoff.md")),
      expected: orientation({
        objective: "Rotate refresh tokens on every use so a stolen token works once at most.\nResume focus: finish the retry path",
        progress: ["`shared/auth/rotate.ts` rotates and stores the new token.", "Migration `db/migrations/0042_refresh.sql` adds the `rotated_at` column."],
        decisions: ["Rotation happens server-side only.", "Rejected: sliding expiry (does not stop replay)."],
        current_state: "Rotation works end to end; `client/retry.ts` still retries with the old token.",
        unfinished: ["Make `client/retry.ts` pick up the rotated token.", "Remove the debug log in /home/dev/app/tmp/debug.log (machine-local)."],
        verification: ["`npm test` green except `test/client/retry.test.ts` (expected)."],
        warnings: ["Do not re-enable sliding expiry."],
        references: ["docs/auth.md", "https://example.dev/rfc6749"],
      }),
    },
    {
      name: "foreign Markdown: bold labels, other heading words and levels, fenced heading ignored",
      doc: () => ({ format: "markdown", body: fixture("foreign-handoff.md"), metadata: {} }),
      expected: orientation({
        objective: "make search reindex incrementally instead of nightly.",
        progress: ["Added a change feed consumer (src/index/feed.ts)", "Benchmarked: 40x less work per hour"],
        current_state: "The consumer runs but drops deletes.\nwaiting on the feed team.",
        unfinished: ["the feed has no tombstones for deletes", "Should we backfill?"],
        warnings: ["The staging cluster is shared; do not reindex it during the day."],
      }),
    },
    {
      name: "plain text with labels",
      doc: () => ({ format: "text", body: fixture("plain.txt"), metadata: {} }),
      expected: orientation({
        objective: "ship the CSV export for invoices.",
        progress: ["the export endpoint and its tests."],
        current_state: "the download button is wired but hidden behind a flag.",
        unfinished: ["remove the flag", "announce in the changelog"],
        warnings: ["large accounts time out after 30 s."],
      }),
    },
    {
      name: "kernel manifest (real)",
      doc: () => ({ format: "kernel.handoff/v1", body: fixture(MANIFEST), metadata: {}, manifest: JSON.parse(fixture(MANIFEST)) }),
      expected: orientation({
        objective: [
          "Finish the yaml-skill-unification commission (docs, release, chronicle)",
          "Success conditions:",
          "- docs/MIGRATION-8.md exists with smoke-test instructions and tradition boundary",
          "- README + QUICKSTART speak unified-skill language",
          "- version 8.0.0 synced everywhere (version_sync test green)",
          "- chronicle written in Vaults/_meta/chronicles/2026/",
          "- full suite green",
        ].join("\n"),
        progress: [
          "recon (inherited) (evidence: contract section 1 (verified inventory, 255-test baseline))",
          "runtime (inherited) (evidence: commit f80b215, manifest suite 22/22)",
          "migration (inherited) (evidence: commit c23e6cb, suite 277/277, commands/ deleted)",
          "state_skills (inherited) (evidence: commit 12397de, suite 282/282)",
        ],
        decisions: [
          "no compatibility aliases (rationale: invocation strings identical before/after; aliases perpetuate dual architecture)",
          "experiment merged engine-into-skill (rationale: one /kernel:experiment, engine body + methodology gates)",
          "invariant: I0.5: never --no-verify",
          "invariant: I0.8: push after every commit",
          "rejected: keep commands as thin wrappers pointing at skills (reason: dual architecture with zero user benefit)",
          "non-goal: merging tradition into kernel",
          "non-goal: rewriting methodology skill bodies",
        ],
        current_state: [
          "entry phase: docs_release",
          "first operation: write docs/MIGRATION-8.md, then update README.md + docs/QUICKSTART.md, then scripts/bump-version.sh 8.0.0",
          "stop if: version_sync test failure after bump; any suite regression",
        ].join("\n"),
        unfinished: ["docs_release (required)", "chronicle (required)", "feat/aggressive-promotion is unmerged and unPR'd; this branch stacks on it (merge order)"],
        warnings: ["manifests are canonical JSON now; yaml versions of this handoff are historical", "do not recreate command files as aliases (rejected)"],
        references: [
          "_meta/contracts/yaml-skill-unification-2026-07-10.md (contract; binding migration contract)",
          "schemas/kernel.handoff.v1.schema.json (the schema this manifest validates against)",
        ],
      }),
    },
    {
      name: "kernel manifest parsed from the body when not given",
      doc: () => ({ format: "kernel.handoff/v1", body: '{"objective":{"goal":"g","success_conditions":[]},"execution":{"entry_phase":"p"}}', metadata: {} }),
      expected: orientation({ objective: "g", current_state: "entry phase: p" }),
    },
    {
      name: "kernel checkpoint",
      doc: () => ({ format: "kernel.checkpoint/v1", body: fixture("checkpoint.json"), metadata: {}, manifest: JSON.parse(fixture("checkpoint.json")) }),
      expected: orientation({
        objective: "Fix the flaky retry test",
        progress: ["reproduced with --repeat 50 (evidence: 3 of 50 failed)"],
        current_state: "position: cause found: real timers\nnext operation: edit test/client/retry.test.ts",
        unfinished: ["replace the sleep with a fake clock"],
        references: ["_meta/handoffs/flaky-2026-07-09.json (parent handoff)", "test/client/retry.test.ts"],
      }),
    },
    {
      name: "malformed manifest fields are skipped, not fatal",
      doc: () => ({ format: "kernel.handoff/v1", body: "", metadata: {}, manifest: { objective: "not an object", warnings: ["w", 3], workflow: { phases: [{ name: "a", status: "required" }, 7] } } }),
      expected: orientation({ unfinished: ["a (required)"], warnings: ["w"] }),
    },
    {
      name: "frontmatter title supplies the objective when the body has none",
      doc: () => ({ format: "markdown", body: "## Next steps\n- write tests\n", metadata: { title: "Export", summary: "CSV export for invoices" } }),
      expected: orientation({ objective: "CSV export for invoices", unfinished: ["write tests"] }),
    },
    {
      name: "a pasted document whose body still has its frontmatter",
      doc: () => ({ format: "markdown", body: "---\ntitle: x\n---\n## Status\nhalf done\n", metadata: {} }),
      expected: orientation({ current_state: "half done" }),
    },
    {
      name: "setext headings, numbered headings, checkboxes, nested subheadings stay in their section",
      doc: () => ({
        format: "markdown",
        body: "Goal\n====\nShip it\n\n## 2. Progress\n- [x] parser\n- [ ] printer\n\n### Parser detail\nfast now\n\n## Next\n- printer",
        metadata: {},
      }),
      expected: orientation({ objective: "Ship it", progress: ["parser", "printer", "Parser detail", "fast now"], unfinished: ["printer"] }),
    },
    {
      name: "emphasis inside a sentence is not a label",
      doc: () => ({ format: "markdown", body: "We **goal** nothing here.\n\n**Status:** fine", metadata: {} }),
      expected: orientation({ current_state: "fine" }),
    },
  ];

  it.each(cases)("$name", ({ doc, expected }) => {
    expect(extractOrientation(doc())).toEqual(expected);
  });

  it("bounds every string and list", () => {
    const long = "x".repeat(10_000);
    const body = `## Objective\n${long}\n\n## Next steps\n${Array.from({ length: 80 }, (_, i) => `- ${i} ${long}`).join("\n")}`;
    const o = extractOrientation({ format: "markdown", body, metadata: {} });
    expect(o.objective?.length).toBe(ORIENTATION_LIMITS.textChars);
    expect(o.objective?.endsWith("…")).toBe(true);
    expect(o.unfinished).toHaveLength(ORIENTATION_LIMITS.items);
    expect(Math.max(...o.unfinished.map((item) => item.length))).toBe(ORIENTATION_LIMITS.itemChars);
  });

  it("reads a 1 MiB body of headings and labels through (no quadratic rescans)", () => {
    const unit = "### Detail\nx\n\n**Status:** fine\n\n## Unknown\n";
    const body = `## Progress\n${unit.repeat(Math.floor(1_048_576 / unit.length))}`;
    const o = extractOrientation({ format: "markdown", body, metadata: {} });
    expect(o.current_state?.startsWith("fine\nfine")).toBe(true);
    expect(o.progress).toEqual(["Detail", "x"]);
  });

  it("never splits a surrogate pair when clipping", () => {
    const body = `## Goal\n${"😀".repeat(3000)}`;
    const objective = extractOrientation({ format: "markdown", body, metadata: {} }).objective ?? "";
    expect(objective.endsWith("…")).toBe(true);
    expect(/[\uD800-\uDBFF]…$/.test(objective)).toBe(false);
  });
});

describe("assessSufficiency", () => {
  const cases: { name: string; doc: () => SourceDocument; sufficient: boolean; missing: string[] }[] = [
    { name: "ce handoff", doc: () => ceDocument(fixture("ce-handoff.md")), sufficient: true, missing: [] },
    { name: "kernel manifest: execution is the current state", doc: () => ({ format: "kernel.handoff/v1", body: fixture(MANIFEST), metadata: {} }), sufficient: true, missing: [] },
    { name: "sparse: objective, no current state", doc: () => ({ format: "markdown", body: fixture("sparse.md"), metadata: {} }), sufficient: false, missing: ["current_state"] },
    { name: "next steps count as current state", doc: () => ({ format: "text", body: "Goal: x\n\nNext steps:\n- y", metadata: {} }), sufficient: true, missing: [] },
    { name: "state but no objective", doc: () => ({ format: "markdown", body: "## Status\nhalf done", metadata: {} }), sufficient: false, missing: ["objective"] },
    { name: "nothing", doc: () => ({ format: "text", body: "hello there", metadata: {} }), sufficient: false, missing: ["objective", "current_state"] },
    {
      name: "kernel without execution or required phases",
      doc: () => ({ format: "kernel.handoff/v1", body: "", metadata: {}, manifest: { objective: { goal: "g" } } }),
      sufficient: false,
      missing: ["current_state"],
    },
  ];
  it.each(cases)("$name", ({ doc, sufficient, missing }) => {
    expect(assessSufficiency(extractOrientation(doc()))).toEqual({ sufficient, missing });
  });
});

describe("classifySectionLabel", () => {
  it.each([
    ["Objective and current user intent", "objective"],
    ["Work completed", "progress"],
    ["Decisions, constraints, and rejected alternatives", "decisions"],
    ["Current state", "current_state"],
    ["Authoritative references", "references"],
    ["7. Unfinished work, blockers, and fragile local state", "unfinished"],
    ["Verification performed and failures observed", "verification"],
    ["Plausible next steps", "unfinished"],
    ["What's next?", "unfinished"],
    ["TODO", "unfinished"],
    ["Open threads", "unfinished"],
    ["Known warnings", "warnings"],
    ["Tests", "verification"],
    ["Task", "objective"],
    ["Décisions", "decisions"],
    // A letter of another script belongs to its word, as in discovery's words: no "next steps" here.
    ["Nextж steps", undefined],
    ["Next steps →", "unfinished"],
    ["How the task runner works", undefined],
    ["Relevant installed skills", undefined],
    ["Appendix: the goal of a later project", undefined],
  ])("%s -> %s", (label, kind) => {
    expect(classifySectionLabel(label)).toBe(kind);
  });
});

describe("markdownHeadings", () => {
  it.each([
    {
      text: "# A\n## B ##\n####### not\n#nospace",
      headings: [
        [0, 1, "A"],
        [1, 2, "B"],
      ],
    },
    {
      text: "Title\n=====\nSub\n---",
      headings: [
        [0, 1, "Title"],
        [2, 2, "Sub"],
      ],
    },
    { text: "```\n# fenced\n```\n~~~~\n## also fenced\n~~~~\n# real", headings: [[6, 1, "real"]] },
    { text: "```js\n# fenced\n````\n# still fenced? no: closed by a longer fence", headings: [[3, 1, "still fenced? no: closed by a longer fence"]] },
    { text: "a\nb\n---\n- item\n---", headings: [] },
    { text: "    # indented code\n   # three spaces ok", headings: [[1, 1, "three spaces ok"]] },
  ])("$text", ({ text, headings }) => {
    expect(markdownHeadings(splitLines(text)).map((h) => [h.line, h.level, h.text])).toEqual(headings);
  });
});
