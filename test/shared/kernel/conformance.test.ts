import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildKernelManifest } from "../../../shared/kernel/build.js";
import { renderKernelMarkdown } from "../../../shared/kernel/render.js";
import { validateKernelText } from "../../../shared/kernel/validate.js";
import { validateDocumentText, validateExitCode } from "../../../shared/document/validate-document.js";
import { ensureBuilt, runCli } from "../../helpers/cli.js";
import { type CorpusCase, type Exception, INVALID_UTF8, buildCorpus, fullManifest } from "../../helpers/kernel-corpus.js";
import { referenceValidate } from "../../helpers/kernel-reference.js";
import { makeRepo, tempDir } from "../../client/git-repo.js";

/**
 * Conformance with kernel's reference validator, the contract's oracle: over several hundred
 * documents (the real manifest, manifests Handoff creates, and mutations of every schema field
 * and every rule of the reference's code), `handoff validate` must reach the reference's verdict,
 * except in the documented exceptions (docs/conformance.md), where it must differ the documented way.
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

beforeAll(async () => {
  await ensureBuilt();
  dir = makeRepo(tempDir("kernel-conformance-"), { "README.md": "# Demo\n", "docs/a.md": "# A\n" });
  const captured = { name: "conformance", created: "2026-07-10T21:45:00.000Z", branch: "main", commit: "c".repeat(40), dirty: true };
  const created = PARTIALS.map(([name, partial]) => ({ name: `build ${name}`, text: JSON.stringify(buildKernelManifest(partial, captured), null, 2) }));
  // And what the CLI itself writes, dirty tree and pins included.
  writeFileSync(join(dir, "README.md"), "# Demo, edited\n");
  for (const [name, partial] of PARTIALS) {
    const run = await runCli(["create", "--format", "kernel", "--title", `Conformance ${name}`, "--pin", "docs/a.md", "--json"], { cwd: dir, input: JSON.stringify(partial) });
    expect(run.stderr).not.toMatch(/not written/);
    expect(run.code).toBe(0);
    const { path } = JSON.parse(run.stdout) as { path: string };
    created.push({ name: `cli ${name}`, text: (await import("node:fs")).readFileSync(path, "utf8") });
  }
  corpus = buildCorpus(created);
  mkdirSync(join(dir, "corpus"));
  files = corpus.map((c, i) => {
    const file = join(dir, "corpus", `case-${i}.json`);
    writeFileSync(file, c.text);
    return file;
  });
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("handoff validate against kernel's reference validator", () => {
  it("reaches the reference's verdict on every case of the corpus, except the documented exceptions", () => {
    const verdicts = referenceValidate(files, dir);
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
    const verdicts = referenceValidate(files, dir);
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

  it("agrees on a file that is not UTF-8", () => {
    const file = join(dir, "corpus", "not-utf8.json");
    writeFileSync(file, INVALID_UTF8);
    expect(referenceValidate([file], dir)[0]!.exit).toBe(2);
  });

  it("the CLI gives the same verdict as the core on a sample, and exit codes 0 / 1 / 2 as the reference does", async () => {
    const verdicts = referenceValidate(files, dir);
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

describe("the disk's part of the contract", () => {
  it("a manifest path that leads outside the repository through a symlink: invalid for both, by the CLI", async () => {
    const { symlinkSync } = await import("node:fs");
    const outside = tempDir("kernel-outside-");
    symlinkSync(outside, join(dir, "vendor"));
    const manifest = fullManifest();
    manifest.provenance.artifacts[0].path = "vendor/secret.md";
    const file = join(dir, "corpus", "symlink-out.json");
    writeFileSync(file, JSON.stringify(manifest));
    const run = await runCli(["validate", file, "--json"], { cwd: dir });
    expect(referenceValidate([file], dir)[0]!.exit).toBe(1);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).issues).toEqual([{ path: "provenance.artifacts[0].path", message: "resolves outside the repository (through a symlink)" }]);
    rmSync(outside, { recursive: true, force: true });
  });
});
