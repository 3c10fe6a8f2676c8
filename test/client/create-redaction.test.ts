import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { makeRepo, tempDir } from "./git-repo.js";

beforeAll(ensureBuilt);

// Built at run time so the repository never holds a string that looks like a live credential.
const githubToken = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5";
const awsKeyId = "AKIA" + "Z3XQ7B2M5N8P4R6T";

function env(dir: string) {
  return { HOME: dir, TMPDIR: dir, HANDOFF_ROOT: join(dir, "store") };
}

describe("create redacts before anything is written", () => {
  it("replaces secrets in the body and the metadata, and reports rule and line, never the value", async () => {
    const dir = tempDir("redact-create-");
    const body = `# Deploy fix\n\nState: half done.\n\nUsed ${githubToken} to push.\nAWS key ${awsKeyId} in .env (rotate it).\nCommit 3f9c2a1e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39 stays.\n`;
    const run = await runCli(["create", "--title", `Deploy ${githubToken}`, "--json"], { cwd: dir, env: env(dir), input: body });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    const written = readFileSync(result.path, "utf8");
    for (const text of [written, run.stdout, run.stderr]) {
      expect(text).not.toContain(githubToken.slice(4, 20));
      expect(text).not.toContain(awsKeyId.slice(4));
    }
    expect(written).toContain("[REDACTED:github-token]");
    expect(written).toContain("3f9c2a1e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39");
    expect(result.redaction).toMatchObject({ applied: true, total: 3 });
    expect(result.redaction.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "title", rule: "github-token" }),
        expect.objectContaining({ field: "body", line: 5, rule: "github-token" }),
        expect.objectContaining({ field: "body", line: 6 }),
      ]),
    );
    expect(run.stderr).toMatch(/redacted: 3 secrets/);
  });

  it("--no-redact writes the text as given and warns", async () => {
    const dir = tempDir("redact-opt-out-");
    const run = await runCli(["create", "--no-redact", "--json"], { cwd: dir, env: env(dir), input: `# T\n\nState: ${githubToken}\n` });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(readFileSync(result.path, "utf8")).toContain(githubToken);
    expect(result.redaction.applied).toBe(false);
    expect(result.warnings.map((w: { code: string }) => w.code)).toContain("not_redacted");
  });

  it("redacts every string of a kernel manifest without breaking its JSON", async () => {
    const dir = makeRepo(tempDir("redact-kernel-"));
    const partial = {
      objective: { goal: `rotate ${githubToken}`, success_conditions: ["done"] },
      workflow: { phases: [{ name: "rotate", status: "required" }] },
      execution: { entry_phase: "rotate", entrypoint: `export GITHUB_TOKEN=${githubToken}` },
    };
    writeFileSync(join(dir, "partial.json"), JSON.stringify(partial));
    const run = await runCli(["create", "--format", "kernel", "--body-file", join(dir, "partial.json"), "--json"], { cwd: dir, env: env(dir) });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    const manifest = JSON.parse(readFileSync(result.path, "utf8"));
    expect(JSON.stringify(manifest)).not.toContain(githubToken.slice(4, 20));
    expect(manifest.objective.goal).toBe("rotate [REDACTED:github-token]");
    expect(result.redaction.findings.map((f: { field: string }) => f.field).sort()).toEqual(["execution.entrypoint", "objective.goal"]);
  });
});
