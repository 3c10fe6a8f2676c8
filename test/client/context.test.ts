import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { validateContextReceipt } from "../../shared/kernel/receipt.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { referenceCompile, referenceHere } from "../helpers/kernel-reference.js";
import { listFiles, normalize } from "./cli-helpers.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

beforeAll(ensureBuilt);

const EXAMPLE = readFileSync(new URL("../fixtures/kernel/example.yaml-skill-unification-2026-07-10.json", import.meta.url), "utf8");
const CONTRACT = readFileSync(new URL("../fixtures/resume/contract.md", import.meta.url), "utf8");
const CONTRACT_PATH = "_meta/contracts/yaml-skill-unification-2026-07-10.md";
const SECRET = "SECRET-VALUE-never-in-output";
// A FIFO in the path of a read would block forever: the test's own time limit turns that into a failure.

interface Piece {
  selector: string;
  outcome: string;
  text: string;
  note?: string;
  list: string;
}
interface JsonResult {
  manifest: string;
  bundle: { pieces: Piece[]; total_estimated_tokens: number };
  receipt: Record<string, unknown>;
}

/** A repository in a fresh temp folder, with `files` committed, and an env for the CLI. */
function sandbox(files: Record<string, string>) {
  const base = tempDir("handoff-context-");
  const repo = makeRepo(join(base, "repo"), files);
  const home = join(base, "home");
  mkdirSync(home);
  return { base, repo, env: { ...GIT_ENV, HOME: home, TMPDIR: base } };
}

/** The example manifest with its context replaced, written into the repo. */
function writeManifest(repo: string, context: Record<string, unknown>, name = "_meta/handoffs/m.json"): string {
  const manifest = JSON.parse(EXAMPLE) as Record<string, unknown>;
  manifest.context = { policy: { mode: "advisory" }, ...context };
  mkdirSync(join(repo, "_meta/handoffs"), { recursive: true });
  writeFileSync(join(repo, name), `${JSON.stringify(manifest, null, 2)}\n`);
  return name;
}

async function compileJson(repo: string, env: Record<string, string>, manifest: string, extra: string[] = []) {
  const run = await runCli(["context", manifest, "--json", ...extra], { cwd: repo, env });
  return { run, result: JSON.parse(run.stdout) as JsonResult };
}

describe("handoff context", () => {
  it("compiles the real example manifest: required selectors in order, bundle on stdout, summary on stderr", async () => {
    const box = sandbox({ [CONTRACT_PATH]: CONTRACT, "CHANGELOG.md": "# Changelog\n\n## 1.0\n- first\n", "frontend/app.ts": SECRET });
    mkdirSync(join(box.repo, "_meta/handoffs"));
    writeFileSync(join(box.repo, "_meta/handoffs/example.json"), EXAMPLE);
    const run = await runCli(["context", "_meta/handoffs/example.json"], { cwd: box.repo, env: box.env });
    expect(normalize(run, { [box.base]: "<TMP>" })).toMatchSnapshot();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("## 7. Files to modify");
    expect(run.stdout).toContain("### 7.1 Details");
    expect(run.stdout).not.toContain(SECRET);
  });

  it("resolves lines, a nested heading, grep with context and a git_diff between two real commits", async () => {
    const box = sandbox({
      "src/app.ts": "line 1\nline 2\nline 3\nline 4\n",
      "docs/guide.md": "# Guide\n\n## Setup\nstep one\n### Setup details\nnested\n## Usage\nlater\n",
      "notes.txt": "a\nb\nTODO: first\nc\nd\ne\nf\nTODO: second\ng\n",
      ".env": "TOKEN=old\n",
    });
    const before = git(box.repo, "rev-parse", "HEAD");
    writeFileSync(join(box.repo, "src/app.ts"), "line 1\nline 2 changed\nline 3\nline 4\n");
    writeFileSync(join(box.repo, ".env"), `TOKEN=${SECRET}\n`);
    git(box.repo, "commit", "-qam", "second");
    const after = git(box.repo, "rev-parse", "HEAD");
    const manifest = writeManifest(box.repo, {
      required: [
        { path: "src/app.ts", lines: "2-3", reason: "the changed lines" },
        { path: "docs/guide.md", heading: "## Setup", reason: "setup" },
        { path: "./notes.txt", grep: "TODO", context: 1, reason: "open items" },
        { git_diff: `${before}..${after}`, reason: "what changed" },
      ],
      forbidden: [".env"],
    });
    const { run, result } = await compileJson(box.repo, box.env, manifest);
    expect(run.code).toBe(0);
    const [lines, heading, grep, diff] = result.bundle.pieces;
    expect(lines).toMatchObject({ outcome: "resolved", text: "line 2 changed\nline 3" });
    expect(heading).toMatchObject({ outcome: "resolved", text: "## Setup\nstep one\n### Setup details\nnested" });
    expect(grep).toMatchObject({ outcome: "resolved", text: "b\nTODO: first\nc\n--\nf\nTODO: second\ng" });
    expect(diff?.outcome).toBe("resolved");
    expect(diff?.text).toContain("-line 2\n+line 2 changed");
    expect(diff?.text).not.toContain(".env");
    expect(run.stdout).not.toContain(SECRET);
  });

  it("never opens a forbidden path: a forbidden FIFO would hang the read", async () => {
    const box = sandbox({ "README.md": "# Demo\n", "secrets/key.txt": SECRET });
    execFileSync("mkfifo", [join(box.repo, "secrets", "pipe")]);
    execFileSync("mkfifo", [join(box.repo, "plain-pipe")]);
    const manifest = writeManifest(box.repo, {
      required: [{ path: "README.md" }],
      optional: [{ path: "secrets/pipe" }, { path: "secrets/key.txt", grep: "SECRET" }, { path: "plain-pipe" }],
      forbidden: ["secrets/*"],
    });
    const { run, result } = await compileJson(box.repo, box.env, manifest);
    expect(run.code).toBe(0);
    expect(result.bundle.pieces.map((p) => [p.outcome, p.note])).toEqual([
      ["resolved", undefined],
      ["invalid", "forbidden"],
      ["invalid", "forbidden"],
      ["missing", "not a regular file"],
    ]);
    expect(run.stdout).not.toContain(SECRET);
  });

  it("refuses a symlink inside the repository that leads to a forbidden file", async () => {
    const box = sandbox({ "secrets/key.txt": SECRET, "README.md": "# Demo\n" });
    symlinkSync("secrets/key.txt", join(box.repo, "innocent.md"));
    const manifest = writeManifest(box.repo, { required: [{ path: "README.md" }], optional: [{ path: "innocent.md" }], forbidden: ["secrets/**"] });
    const { run, result } = await compileJson(box.repo, box.env, manifest);
    expect(run.code).toBe(0);
    expect(result.bundle.pieces[1]).toMatchObject({ outcome: "invalid", note: "forbidden: the path leads to secrets/key.txt" });
    expect(run.stdout).not.toContain(SECRET);
  });

  it.each<[string, (repo: string, outside: string) => Record<string, unknown>, string]>([
    ["a symlink to a file outside", (repo, outside) => (symlinkSync(join(outside, "secret.txt"), join(repo, "escape.txt")), { path: "escape.txt" }), "path escapes the repository through a symlink"],
    ["a symlinked folder outside", (repo, outside) => (symlinkSync(outside, join(repo, "outdir")), { path: "outdir/secret.txt" }), "path escapes the repository through a symlink"],
  ])("an optional selector through %s is invalid and unread", async (_name, arrange, note) => {
    const box = sandbox({ "README.md": "# Demo\n", "docs/x.md": "x\n" });
    const outside = join(box.base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), SECRET);
    const manifest = writeManifest(box.repo, { required: [{ path: "docs/x.md" }], optional: [arrange(box.repo, outside)] });
    const { run, result } = await compileJson(box.repo, box.env, manifest);
    expect(run.code).toBe(0);
    expect(result.bundle.pieces[1]).toMatchObject({ outcome: "invalid", note });
    expect(run.stdout).not.toContain(SECRET);
  });

  it("a '..' inside the repository resolves; one that climbs out makes the manifest invalid (as validate says)", async () => {
    const box = sandbox({ "README.md": "# Demo\n", "docs/x.md": "x\n" });
    const inside = writeManifest(box.repo, { required: [{ path: "docs/../README.md" }] });
    const ok = await compileJson(box.repo, box.env, inside);
    expect(ok.run.code).toBe(0);
    expect(ok.result.bundle.pieces[0]).toMatchObject({ outcome: "resolved" });
    const outside = writeManifest(box.repo, { required: [{ path: "docs/x.md" }], optional: [{ path: "docs/../../outside/secret.txt" }] }, "_meta/handoffs/out.json");
    const refused = await runCli(["context", outside], { cwd: box.repo, env: box.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("context.optional[0].path: climbs out of the repository");
  });

  it.each<[string, (repo: string) => void, string, string]>([
    ["a symlink loop", (repo) => symlinkSync("loop", join(repo, "loop")), "loop", "a symlink loop"],
    ["a binary file", (repo) => writeFileSync(join(repo, "bin.dat"), Buffer.from([0x50, 0, 0x51])), "bin.dat", "a binary file: left out"],
    ["a 2 GB sparse file", (repo) => (writeFileSync(join(repo, "big.log"), ""), truncateSync(join(repo, "big.log"), 2 ** 31)), "big.log", "larger than the 4 MiB per-file cap: not read"],
    ["a folder", (repo) => mkdirSync(join(repo, "folder")), "folder", "not a regular file"],
  ])("an optional selector naming %s is missing with a note", async (_name, arrange, path, note) => {
    const box = sandbox({ "README.md": "# Demo\n" });
    arrange(box.repo);
    const manifest = writeManifest(box.repo, { required: [{ path: "README.md" }], optional: [{ path }] });
    const { run, result } = await compileJson(box.repo, box.env, manifest);
    expect(run.code).toBe(0);
    expect(result.bundle.pieces[1]).toMatchObject({ outcome: "missing", note });
  });

  it("counts what kernel's reference counts, with its status, outcomes and exit codes (shared fixture)", async () => {
    const box = sandbox({
      "README.md": "# Demo\n\nHello there.\n",
      "docs/guide.md": "# Guide\n\n## Setup\nstep one\nstep two\n## Usage\nlater\n",
      "CHANGELOG.md": Array.from({ length: 40 }, (_, i) => `- change ${i + 1}`).join("\n"),
      "CLAUDE.md": "Project rules: be careful.\n".repeat(20),
      "AGENTS.md": "Project rules: be careful.\n".repeat(20),
    });
    for (const [budget, code] of [
      [{ target_tokens: 5000, max_tokens: 10000 }, 0],
      [{ target_tokens: 1000, max_tokens: 10000 }, 0],
      [{ target_tokens: 100, max_tokens: 600 }, 3],
    ] as const) {
      const manifest = writeManifest(
        box.repo,
        {
          required: [{ path: "README.md" }, { path: "docs/guide.md", heading: "## Setup" }, { path: "CHANGELOG.md", lines: "3-12" }],
          optional: [{ path: "gone.md" }],
          budget,
        },
        `_meta/handoffs/m-${budget.max_tokens}-${budget.target_tokens}.json`,
      );
      const { run, result } = await compileJson(box.repo, box.env, manifest);
      expect(run.code).toBe(code);
      if (code === 3) expect(run.stderr).toContain("maximum_exceeded");
      if (!referenceHere()) continue;
      const reference = referenceCompile(manifest, box.repo);
      const pick = (r: Record<string, unknown>) => ({
        status: r.status,
        total: r.total_estimated_tokens,
        manifest: r.manifest_tokens,
        instructions: r.project_instructions_tokens,
        selected: r.selected_artifacts_tokens,
        outcomes: (r.selections as { outcome: string; estimated_tokens: number }[]).map((sel) => [sel.outcome, sel.estimated_tokens]),
      });
      expect(pick(result.receipt)).toEqual(pick(reference.receipt));
      expect(reference.exit).toBe(code);
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["missing", { required: [{ path: "README.md" }, { path: "gone.md", reason: "the plan" }] }, "  gone.md: missing: no such file"],
    ["with no matching line (empty)", { required: [{ path: "README.md" }, { path: "big.md", grep: "nowhere" }] }, ": empty: no line matches"],
    ["escaping through a symlink", { required: [{ path: "out.md" }] }, "  out.md: invalid: path escapes the repository through a symlink"],
  ])("a required selector %s: exit 1 naming it, the bundle still printed", async (_name, context, line) => {
    const box = sandbox({ "README.md": "# Demo\n", "big.md": "x".repeat(200) });
    writeFileSync(join(box.base, "outside.md"), SECRET);
    symlinkSync(join(box.base, "outside.md"), join(box.repo, "out.md"));
    const manifest = writeManifest(box.repo, context);
    const run = await runCli(["context", manifest], { cwd: box.repo, env: box.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("required selector");
    expect(run.stderr).toContain(line);
    expect(run.stdout).toContain("# Context bundle");
  });

  it("an invalid manifest: exit 1 with every issue as path: message, nothing read", async () => {
    const box = sandbox({ "README.md": "# Demo\n" });
    const manifest = writeManifest(box.repo, { required: [{ path: "../outside.txt" }, { path: "a.md", lines: "9-1", x_extra: 1 }], budget: { target_tokens: 0 } });
    const run = await runCli(["context", manifest], { cwd: box.repo, env: box.env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("context.required[0].path: climbs out of the repository with '..'");
    expect(run.stderr).toContain("context.required[1].x_extra: is not a field of this schema");
    expect(run.stderr).toContain("context.budget.target_tokens: must be at least 1");
  });

  it.each<[string, string[], (dir: string) => void, number, RegExp]>([
    ["no manifest", ["context"], () => undefined, 2, /which manifest/],
    ["an unknown flag", ["context", "m.json", "--bogus"], () => undefined, 2, /--bogus/],
    ["a missing manifest", ["context", "nope.json"], () => undefined, 3, /cannot read nope\.json: no such file/],
    ["a FIFO manifest", ["context", "fifo.json"], (dir) => execFileSync("mkfifo", [join(dir, "fifo.json")]), 3, /not a regular file/],
    ["a manifest over 1 MiB", ["context", "big.json"], (dir) => writeFileSync(join(dir, "big.json"), " ".repeat(1024 * 1024 + 1)), 3, /larger than 1048576 bytes/],
    ["broken JSON", ["context", "bad.json"], (dir) => writeFileSync(join(dir, "bad.json"), '{\n  "schema": \n'), 1, /bad\.json:\d+:\d+: /],
  ])("refuses %s", async (_name, args, arrange, code, message) => {
    const box = sandbox({ "README.md": "# Demo\n" });
    arrange(box.repo);
    const run = await runCli(args, { cwd: box.repo, env: box.env });
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  it("--out and --receipt are written 0600, the receipt validates and hashes the bundle; neither is ever overwritten", async () => {
    const box = sandbox({ "README.md": "# Demo\n\nHello.\n" });
    const manifest = writeManifest(box.repo, { required: [{ path: "README.md", reason: "intro" }], budget: { target_tokens: 5000, max_tokens: 10000 } });
    const out = join(box.base, "bundle.md");
    const receiptPath = join(box.base, "receipt.json");
    const run = await runCli(["context", manifest, "--out", out, "--receipt", receiptPath], { cwd: box.repo, env: box.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`bundle: ${out}`);
    expect(run.stderr).toContain(`receipt: ${receiptPath}`);
    for (const path of [out, receiptPath]) expect(statSync(path).mode & 0o777).toBe(0o600);
    const bundle = readFileSync(out, "utf8");
    const receipt = JSON.parse(readFileSync(receiptPath, "utf8")) as Record<string, unknown>;
    expect(validateContextReceipt(receipt)).toMatchObject({ ok: true, issues: [] });
    expect(receipt.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/); // kernel's reference's own shape
    expect(receipt).toMatchObject({
      manifest,
      status: "within_budget",
      bundle_sha256: createHash("sha256").update(bundle).digest("hex"),
      manifest_sha256: createHash("sha256")
        .update(readFileSync(join(box.repo, manifest)))
        .digest("hex"),
      selections: [{ selector: "README.md", outcome: "resolved", resolved: true, resolved_sha256: createHash("sha256").update("# Demo\n\nHello.\n").digest("hex") }],
    });

    writeFileSync(join(box.repo, "README.md"), "# Changed\n");
    const again = await runCli(["context", manifest, "--out", out, "--receipt", join(box.base, "other.json")], { cwd: box.repo, env: box.env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--out ${out} already exists; not overwriting it`);
    expect(readFileSync(out, "utf8")).toBe(bundle);
    expect(listFiles(box.base).filter((f) => !f.startsWith("repo/") && !f.startsWith("home/"))).toEqual(["bundle.md", "receipt.json"]);
  });

  it("--json prints the manifest, the bundle's pieces and total, and a receipt that validates", async () => {
    const box = sandbox({ "README.md": "# Demo\n" });
    const manifest = writeManifest(box.repo, { required: [{ path: "README.md" }], optional: [{ path: "gone.md" }] });
    const { run, result } = await compileJson(box.repo, box.env, manifest);
    expect(run.code).toBe(0);
    expect(Object.keys(result)).toEqual(["manifest", "bundle", "receipt"]);
    expect(Object.keys(result.bundle)).toEqual(["pieces", "total_estimated_tokens"]);
    expect(result.bundle.pieces.map((p) => [p.list, p.outcome])).toEqual([
      ["required", "resolved"],
      ["optional", "missing"],
    ]);
    expect(validateContextReceipt(result.receipt).ok).toBe(true);
    expect(run.stderr).toContain("context: 1 resolved, 0 empty, 1 missing, 0 invalid");
    expect(run.stderr).toContain("bundle: pieces in the --json output");
  });

  it("outside a git checkout it needs --repo; with it, selectors resolve there", async () => {
    const base = tempDir("handoff-context-plain-");
    mkdirSync(join(base, "project"));
    writeFileSync(join(base, "project", "notes.md"), "plain notes\n");
    const manifest = writeManifest(base, { required: [{ path: "notes.md" }] });
    const env = { ...GIT_ENV, HOME: base, TMPDIR: base, GIT_CEILING_DIRECTORIES: base };
    const without = await runCli(["context", manifest], { cwd: base, env });
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("pass --repo DIR");
    const withRepo = await runCli(["context", manifest, "--repo", "project", "--json"], { cwd: base, env });
    expect(withRepo.code).toBe(0);
    expect((JSON.parse(withRepo.stdout) as JsonResult).bundle.pieces[0]).toMatchObject({ outcome: "resolved", text: "plain notes\n" });
  });
});
