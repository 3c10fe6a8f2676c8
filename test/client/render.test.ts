import { type SpawnSyncReturns, execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderKernelMarkdown } from "../../shared/kernel/render.js";
import { validateKernelText } from "../../shared/kernel/validate.js";
import { EXAMPLE_FILE, KERNEL_FIXTURES, fixtureText } from "../shared/kernel/fixtures.js";
import { cleanEnv, ensureBuilt } from "../helpers/cli.js";
import { unprivilegedCli, unprivilegedDir } from "../helpers/unprivileged.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(repoRoot, "bin/handoff.cjs");
let dir: string;

/**
 * Runs the built CLI in `dir`. A synchronous spawn blocks the test's own time limit, so it carries
 * one, far longer than any run on a busy machine: a hang still fails instead of stalling the file.
 */
function handoff(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return handoffIn(dir, [process.execPath, [bin, ...args]]);
}

function handoffIn(cwd: string, [file, args]: [string, string[]]): { code: number | null; stdout: string; stderr: string } {
  const result: SpawnSyncReturns<string> = spawnSync(file, args, {
    cwd,
    env: cleanEnv({ HOME: cwd }),
    encoding: "utf8",
    timeout: 180_000,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function expectedMarkdown(name = EXAMPLE_FILE): string {
  const { manifest } = validateKernelText(fixtureText(EXAMPLE_FILE));
  return renderKernelMarkdown(manifest!, name);
}

function writeManifest(name: string, change: (m: Record<string, any>) => void): void {
  const manifest = JSON.parse(fixtureText(EXAMPLE_FILE));
  change(manifest);
  writeFileSync(join(dir, name), JSON.stringify(manifest, null, 2));
}

beforeAll(async () => {
  // The shared, locked build: rebuilding dist/ here would pull chunks from under CLIs other test files run.
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "handoff-render-"));
  copyFileSync(join(KERNEL_FIXTURES, EXAMPLE_FILE), join(dir, EXAMPLE_FILE));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("handoff render", () => {
  it("prints the rendering of the real manifest on stdout", () => {
    const result = handoff("render", EXAMPLE_FILE);
    expect(result).toEqual({ code: 0, stdout: expectedMarkdown(), stderr: "" });
    expect(result.stdout.split("\n")[0]).toBe(`# RENDERED FROM ${EXAMPLE_FILE} — NOT AUTHORITATIVE`);
  });

  it("prints {source, markdown} with --json", () => {
    const result = handoff("render", EXAMPLE_FILE, "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ source: EXAMPLE_FILE, markdown: expectedMarkdown() });
  });

  it("writes --out to a new file and prints its path", () => {
    const result = handoff("render", EXAMPLE_FILE, "--out", "out.md");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(join(dir, "out.md"));
    expect(result.stderr).toMatch(/not authoritative/);
    expect(readFileSync(join(dir, "out.md"), "utf8")).toBe(expectedMarkdown());
  });

  it("refuses to overwrite an existing --out, and replaces it with --force", () => {
    writeFileSync(join(dir, "existing.md"), "keep me");
    const refused = handoff("render", EXAMPLE_FILE, "--out", "existing.md");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/existing\.md already exists; not overwriting it\n {2}pass --force/);
    expect(readFileSync(join(dir, "existing.md"), "utf8")).toBe("keep me");

    const forced = handoff("render", EXAMPLE_FILE, "--out", "existing.md", "--force");
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, "existing.md"), "utf8")).toBe(expectedMarkdown());
  });

  it("never writes through a symlink planted at --out", () => {
    writeFileSync(join(dir, "victim.txt"), "untouched");
    symlinkSync(join(dir, "victim.txt"), join(dir, "link.md"));
    expect(handoff("render", EXAMPLE_FILE, "--out", "link.md").code).toBe(2);
    expect(handoff("render", EXAMPLE_FILE, "--out", "link.md", "--force").code).toBe(0);
    expect(readFileSync(join(dir, "victim.txt"), "utf8")).toBe("untouched");
    expect(readFileSync(join(dir, "link.md"), "utf8")).toBe(expectedMarkdown());
  });

  it("does not render an invalid manifest: exit 1 with every issue as path: message", () => {
    writeManifest("bad.json", (m) => {
      m.identity.created = "2026-02-30T00:00:00Z";
      m.context.required[2].path = "../x";
      m.x_tool = 1;
    });
    const result = handoff("render", "bad.json", "--out", "bad.md");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("bad.json is not a valid kernel.handoff/v1 manifest (3 problems):");
    expect(result.stderr).toContain("  context.required[2].path: climbs out of the repository with '..'\n");
    expect(result.stderr).toContain("  x_tool: is not a field of this schema (unknown keys are rejected)\n");
    expect(result.stderr).toContain("  identity.created: 2026-02-30 is not a calendar date\n");
    expect(existsSync(join(dir, "bad.md"))).toBe(false);
  });

  it("puts the issues in the JSON error body with --json", () => {
    writeManifest("bad-json.json", (m) => (m.context.budget.target_tokens = 70000));
    const result = handoff("render", "bad-json.json", "--json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({
      code: "invalid_document",
      details: { issues: [{ path: "context.budget.target_tokens", message: "(70000) must not exceed max_tokens (60000)" }] },
    });
  });

  it("rejects a duplicate key with its line, column and path", () => {
    writeFileSync(join(dir, "dup.json"), fixtureText(EXAMPLE_FILE).replace('"dirty": false,', '"dirty": false,\n    "dirty": true,'));
    const result = handoff("render", "dup.json");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^handoff: dup\.json:13:5: duplicate key "dirty" \(first at line 12, column 5\)/);
  });

  it.each([
    ["a missing file", () => "nope.json", /cannot read nope\.json: no such file/, 3],
    ["a folder", () => (mkdirSync(join(dir, "folder.json")), "folder.json"), /it is a folder, not a file/, 3],
    ["a FIFO, without blocking", () => (execFileSync("mkfifo", [join(dir, "fifo.json")]), "fifo.json"), /not a regular file/, 3],
    ["a file over 1 MiB", () => (writeFileSync(join(dir, "big.json"), ""), truncateSync(join(dir, "big.json"), 2 * 1024 * 1024), "big.json"), /larger than 1048576 bytes/, 3],
    ["invalid UTF-8", () => (writeFileSync(join(dir, "latin1.json"), Buffer.from([0x7b, 0xe9, 0x7d])), "latin1.json"), /not valid UTF-8/, 1],
  ])("refuses %s", (_name, setup, message, code) => {
    const result = handoff("render", setup());
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("refuses a file it may not read (as root too: then the CLI runs as nobody)", () => {
    const locked = unprivilegedDir("handoff-render-locked-");
    writeFileSync(join(locked, "secret.json"), "{}");
    chmodSync(join(locked, "secret.json"), 0o000);
    const result = handoffIn(locked, unprivilegedCli(locked, ["render", "secret.json"]));
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/permission denied/);
  });

  it.each([
    [[], /which manifest\?/],
    [["a.json", "b.json"], /takes one FILE\.json/],
    [[EXAMPLE_FILE, "--force"], /--force goes with --out/],
    [[EXAMPLE_FILE, "--outt", "x"], /Unknown option '--outt'/],
  ])("is a usage error for %j", (args, message) => {
    const result = handoff("render", ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("prints its help", () => {
    const result = handoff("render", "--help");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: handoff render FILE\.json/);
  });
});
