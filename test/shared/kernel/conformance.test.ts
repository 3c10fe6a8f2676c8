import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildKernelManifest } from "../../../shared/kernel/build.js";
import { renderKernelMarkdown } from "../../../shared/kernel/render.js";
import { validateKernelText } from "../../../shared/kernel/validate.js";
import { type ValidateReport, validateDocumentText } from "../../../shared/document/validate-document.js";
import { exitCodeForOutcome } from "../../../client/cli/main.js";
import { command as validateCommand } from "../../../client/commands/validate/run.js";

/** The exit `handoff validate` gives a report: the command's own outcome, through the CLI's one map. */
const validateExitCode = (report: ValidateReport) => exitCodeForOutcome(validateCommand.outcome(report));
import { ensureBuilt, runCli } from "../../helpers/cli.js";
import { type CorpusCase, type Exception, INVALID_UTF8, buildCorpus, fullManifest } from "../../helpers/kernel-corpus.js";
import { liveSpecDir, referenceValidate } from "../../helpers/kernel-reference.js";
import { REGENERATE, caseKey, committedKernelFacts, corpusRepo, kernelFactsFrom, verdictDrift, writeCorpus } from "../../helpers/reference-facts.js";
import { tempDir } from "../../client/git-repo.js";

/**
 * Conformance with kernel's reference validator, the contract's oracle: over several hundred
 * documents (the real manifest and mutations of every schema field and every rule of the
 * reference's code), `handoff validate` must reach the reference's verdict, except in the
 * documented exceptions (docs/conformance.md), where it must differ the documented way. The
 * reference's verdicts are committed facts (test/fixtures/kernel/reference-verdicts.json), so this
 * runs anywhere; where the reference itself is available, the live tests check that the facts are
 * still its verdicts and that it accepts the manifests Handoff creates in this run.
 */

/** Which side calls a document valid in each exception: RFC 3339 and the schema's own words win. */
const EXCEPTIONS: Record<Exception, { reference: boolean; handoff: boolean }> = {
  "dotdot-name": { reference: false, handoff: true },
  "leap-second": { reference: false, handoff: true },
  "year-zero": { reference: false, handoff: true },
  "offset-minutes": { reference: true, handoff: false },
};

const PARTIALS: [string, unknown][] = [
  ["minimal", { objective: { goal: "g", success_conditions: [] }, workflow: { phases: [{ name: "p", status: "required" }] }, execution: { entry_phase: "p" } }],
  ["full", (({ schema: _s, identity: _i, provenance: _p, ...rest }) => rest)(fullManifest())],
  ["with provenance artifacts", { ...fullManifest(), provenance: { artifacts: [{ path: "docs/a.md", sha256: "b".repeat(64) }], retrospective_refs: ["r.json"] } }],
];

let dir: string;
let corpus: CorpusCase[];
let files: string[];
/** The manifests Handoff built and wrote in this run: they differ per run, so only the live reference judges them. */
let created: CorpusCase[];
let createdFiles: string[];
const facts = committedKernelFacts();
/** The reference's committed exit code for a case (undefined: the corpus changed since the facts were made). */
const referenceExit = (c: CorpusCase) => facts.verdicts[caseKey(c)];

beforeAll(async () => {
  await ensureBuilt();
  dir = corpusRepo();
  const captured = { name: "conformance", created: "2026-07-10T21:45:00.000Z", branch: "main", commit: "c".repeat(40), dirty: true };
  created = PARTIALS.map(([name, partial]) => ({ name: `created: build ${name}`, text: JSON.stringify(buildKernelManifest(partial, captured), null, 2) }));
  // And what the CLI itself writes, dirty tree and pins included.
  for (const [name, partial] of PARTIALS) {
    const run = await runCli(["create", "--format", "kernel", "--title", `Conformance ${name}`, "--pin", "docs/a.md", "--json"], { cwd: dir, input: JSON.stringify(partial) });
    expect(run.stderr).not.toMatch(/not written/);
    expect(run.code).toBe(0);
    const { path } = JSON.parse(run.stdout) as { path: string };
    created.push({ name: `created: cli ${name}`, text: (await import("node:fs")).readFileSync(path, "utf8") });
  }
  corpus = buildCorpus();
  files = writeCorpus(dir, corpus);
  createdFiles = writeCorpus(join(dir, "created"), created);
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("handoff validate against kernel's reference validator", () => {
  it("reaches the reference's verdict on every case of the corpus, except the documented exceptions", () => {
    const unknown = corpus.filter((c) => referenceExit(c) === undefined).map((c) => c.name);
    expect(unknown, `the corpus has cases the committed reference verdicts do not cover: regenerate with ${REGENERATE}`).toEqual([]);
    const verdicts = corpus.map((c) => ({ exit: referenceExit(c)!, output: "(committed verdict)" }));
    const disagreements: string[] = [];
    const counts = { cases: corpus.length, agree: 0, exceptions: 0 };
    const exitCodes: string[] = [];
    corpus.forEach((c, i) => {
      const reference = verdicts[i]!.exit === 0;
      const report = validateDocumentText(files[i]!, c.text);
      const ours = report.valid;
      if (!c.exception && validateExitCode(report) !== verdicts[i]!.exit) exitCodes.push(`${c.name}: reference exit ${verdicts[i]!.exit}, handoff ${validateExitCode(report)}`);
      if (c.exception) {
        counts.exceptions++;
        const expected = EXCEPTIONS[c.exception];
        if (reference !== expected.reference || ours !== expected.handoff) {
          disagreements.push(`${c.name} [exception ${c.exception}]: reference ${reference}, handoff ${ours}, documented ${JSON.stringify(expected)}`);
        }
      } else if (reference === ours) {
        counts.agree++;
      } else {
        disagreements.push(`${c.name}: reference ${reference ? "valid" : `invalid (${verdicts[i]!.output.trim().split("\n")[0]})`}, handoff ${ours ? "valid" : "invalid"}`);
      }
    });
    console.log(`kernel conformance: ${counts.cases} cases, ${counts.agree} agree, ${counts.exceptions} documented exceptions, ${disagreements.length} disagreements`);
    expect(disagreements).toEqual([]);
    // Not only valid or not: unparseable (2) and invalid (1) as the reference tells them apart.
    expect(exitCodes).toEqual([]);
    expect(counts.cases).toBeGreaterThan(500);
    // Both verdicts occur in quantity: a corpus of one kind could not catch a one-sided bug.
    expect(verdicts.filter((v) => v.exit === 0).length).toBeGreaterThan(100);
    expect(verdicts.filter((v) => v.exit !== 0).length).toBeGreaterThan(100);
  });

  it("renders every handoff manifest of the corpus the reference accepts", () => {
    const verdicts = corpus.map((c) => ({ exit: referenceExit(c) }));
    let rendered = 0;
    corpus.forEach((c, i) => {
      if (verdicts[i]!.exit !== 0 || !c.text.includes('"kernel.handoff/v1"')) return;
      const result = validateKernelText(c.text);
      if (c.exception) return;
      expect({ name: c.name, issues: result.issues }).toEqual({ name: c.name, issues: [] });
      expect(renderKernelMarkdown(result.manifest!, "m.json")).toMatch(/^# RENDERED FROM m\.json/);
      rendered++;
    });
    expect(rendered).toBeGreaterThan(100);
  });

  it("agrees on a file that is not UTF-8", async () => {
    const file = join(dir, "corpus", "not-utf8.json");
    writeFileSync(file, INVALID_UTF8);
    expect(facts.verdicts[caseKey({ name: "raw: not UTF-8", text: INVALID_UTF8 })]).toBe(2);
    expect((await runCli(["validate", file, "--json"], { cwd: dir })).code).toBe(2);
  });

  it("the CLI gives the same verdict as the core on a sample, and exit codes 0 / 1 / 2 as the reference does", async () => {
    const verdicts = corpus.map((c) => ({ exit: referenceExit(c) }));
    const sample = corpus.map((_, i) => i).filter((i) => i % 60 === 0 || corpus[i]!.name.startsWith("raw: BOM") || corpus[i]!.name.startsWith("raw: duplicate top"));
    for (const i of sample) {
      const run = await runCli(["validate", files[i]!, "--json"], { cwd: dir });
      const report = JSON.parse(run.stdout) as { valid: boolean; warnings: unknown[] };
      expect({ name: corpus[i]!.name, valid: report.valid }).toEqual({ name: corpus[i]!.name, valid: validateDocumentText(files[i]!, corpus[i]!.text).valid });
      if (!corpus[i]!.exception) expect({ name: corpus[i]!.name, code: run.code }).toEqual({ name: corpus[i]!.name, code: verdicts[i]!.exit });
      expect(Array.isArray(report.warnings)).toBe(true);
    }
  }, 120_000);
});

describe("the live reference", () => {
  it(`the committed verdicts are still the reference's (else: ${REGENERATE})`, () => {
    const live = kernelFactsFrom(liveSpecDir());
    const drift = verdictDrift(facts.verdicts, live.verdicts);
    expect(drift, `kernel's reference no longer gives the committed verdicts (test/fixtures/kernel/reference-verdicts.json): regenerate with ${REGENERATE}`).toEqual([]);
  });

  it("accepts every manifest Handoff built and the CLI wrote in this run, as Handoff does", () => {
    const verdicts = referenceValidate(createdFiles, dir);
    expect(created.map((c, i) => ({ name: c.name, reference: verdicts[i]!.exit, handoff: validateExitCode(validateDocumentText(createdFiles[i]!, c.text)) }))).toEqual(
      created.map((c) => ({ name: c.name, reference: 0, handoff: 0 })),
    );
  });
});

describe("the disk's part of the contract", () => {
  it("a manifest path that leads outside the repository through a symlink: invalid for both, by the CLI", async () => {
    const { symlinkSync } = await import("node:fs");
    const outside = tempDir("kernel-outside-");
    try {
      symlinkSync(outside, join(dir, "vendor"));
      const manifest = fullManifest();
      manifest.provenance.artifacts[0].path = "vendor/secret.md";
      const file = join(dir, "corpus", "symlink-out.json");
      writeFileSync(file, JSON.stringify(manifest));
      const run = await runCli(["validate", file, "--json"], { cwd: dir });
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout).issues).toEqual([{ path: "provenance.artifacts[0].path", message: "resolves outside the repository (through a symlink)" }]);
      expect(referenceValidate([file], dir)[0]!.exit).toBe(1);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
