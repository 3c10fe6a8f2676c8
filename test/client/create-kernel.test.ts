import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { validateKernelText } from "../../shared/kernel/validate.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { expectReferenceAccepts } from "../helpers/kernel-reference.js";
import { git, makeRepo, tempDir } from "./git-repo.js";

beforeAll(ensureBuilt);

const partial = {
  objective: { goal: "Ship the login fix", success_conditions: ["login test green"] },
  workflow: {
    phases: [
      { name: "recon", status: "inherited", evidence: "commit 1" },
      { name: "fix", status: "required" },
    ],
    invalidation_rules: [{ when: { event: "artifact_hash_mismatch", path_glob: "docs/plan.md" }, invalidates: ["recon"] }],
  },
  execution: { entry_phase: "fix" },
};

function repo(): string {
  return makeRepo(tempDir("kernel-create-"), { "README.md": "# Demo\n", "docs/plan.md": "# Plan\n\n## Steps\n1. fix\n" });
}

describe("handoff create --format kernel", () => {
  it("writes a valid manifest under _meta/handoffs with git provenance and pinned hashes", async () => {
    const dir = repo();
    const run = await runCli(["create", "--format", "kernel", "--title", "Login fix", "--pin", "docs/plan.md", "--json"], { cwd: dir, input: JSON.stringify(partial) });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.format).toBe("kernel.handoff/v1");
    expect(result.path).toMatch(/_meta\/handoffs\/login-fix-\d{4}-\d{2}-\d{2}\.json$/);
    const text = readFileSync(result.path, "utf8");
    const validation = validateKernelText(text);
    expect(validation.issues).toEqual([]);
    const manifest = JSON.parse(text);
    expect(manifest.provenance).toMatchObject({ branch: "main", commit: git(dir, "rev-parse", "HEAD"), dirty: false });
    // To the second, as kernel's reference writes it (and as a checkpoint's), so the two order as strings.
    expect(manifest.identity.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const planHash = createHash("sha256")
      .update(readFileSync(join(dir, "docs/plan.md")))
      .digest("hex");
    expect(manifest.provenance.artifacts).toEqual([{ path: "docs/plan.md", sha256: planHash }]);
    expect(manifest.resume.prompt).toBe(`handoff resume '${result.path.slice(dir.length + 1)}'`);
    expect(run.stdout).not.toContain("```");
  });

  it("records a dirty tree as dirty, with no dirty_tree_sha256 (a handoff has none; only a checkpoint does)", async () => {
    const dir = repo();
    writeFileSync(join(dir, "README.md"), "# Demo, edited\n");
    const run = await runCli(["create", "--format", "kernel", "--json"], { cwd: dir, input: JSON.stringify(partial) });
    expect(run.code).toBe(0);
    const path = JSON.parse(run.stdout).path as string;
    const manifest = JSON.parse(readFileSync(path, "utf8"));
    expect(manifest.provenance.dirty).toBe(true);
    expect(manifest.provenance).not.toHaveProperty("dirty_tree_sha256");
    expectReferenceAccepts([path], dir);
  });

  it("refuses a partial with keys the schema does not know, naming them, and writes nothing", async () => {
    const dir = repo();
    const run = await runCli(["create", "--format", "kernel"], { cwd: dir, input: JSON.stringify({ ...partial, x_tool: 1, objective: { ...partial.objective, why: "x" } }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/objective\.why: is not a field[\s\S]*x_tool: is not a field/);
    expect(existsSync(join(dir, "_meta/handoffs")) ? readdirSync(join(dir, "_meta/handoffs")) : []).toEqual([]);
  });

  it("never overwrites: a second manifest of the same name gets a suffix and its own resume prompt", async () => {
    const dir = repo();
    const first = JSON.parse((await runCli(["create", "--format", "kernel", "--title", "Same", "--json"], { cwd: dir, input: JSON.stringify(partial) })).stdout);
    const second = JSON.parse((await runCli(["create", "--format", "kernel", "--title", "Same", "--json"], { cwd: dir, input: JSON.stringify(partial) })).stdout);
    expect(second.path).not.toBe(first.path);
    expect(second.path).toMatch(/-2\.json$/);
    expect(JSON.parse(readFileSync(second.path, "utf8")).resume.prompt).toContain("-2.json");
    expect(second.warnings.map((w: { code: string }) => w.code)).toContain("name_taken");
  });

  it.each([
    ["an invalid manifest", JSON.stringify({ objective: { goal: "x" } }), 1, /does not validate, so it was not written[\s\S]*objective\.success_conditions: is required/],
    ["JSON that is not JSON", "{ not json", 1, /not valid JSON: line 1/],
    ["a duplicate key", '{"objective": {"goal": "a", "goal": "b"}}', 1, /duplicate key "goal"/],
    ["an unknown format", null, 2, /--format must be ce or kernel, got 'yaml'/],
  ])("refuses %s and writes nothing", async (_name, input, code, message) => {
    const dir = repo();
    const args = input === null ? ["create", "--format", "yaml"] : ["create", "--format", "kernel"];
    const run = await runCli(args, { cwd: dir, input: input ?? "# body" });
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(existsSync(join(dir, "_meta/handoffs")) ? readdirSync(join(dir, "_meta/handoffs")) : []).toEqual([]);
  });

  it("needs git, and says so", async () => {
    const run = await runCli(["create", "--format", "kernel"], { cwd: tempDir("kernel-nogit-"), input: JSON.stringify(partial) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("records git provenance");
  });

  it("refuses a --pin outside the repository", async () => {
    const dir = repo();
    const outside = join(tempDir("kernel-outside-"), "x.md");
    writeFileSync(outside, "x");
    const run = await runCli(["create", "--format", "kernel", "--pin", outside], { cwd: dir, input: JSON.stringify(partial) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("outside the repository");
  });
});
