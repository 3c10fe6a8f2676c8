import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runProgram } from "../helpers/cli.js";

// bin/handoff.cjs in a copy of the package without dist/: whatever path the launcher takes (the
// help module, the CLI bundle, the guard), it says the CLI is not built and how to build it.

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-unbuilt-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
mkdirSync(join(base, "bin"));
copyFileSync(join(repoRoot, "bin", "handoff.cjs"), join(base, "bin", "handoff.cjs"));
copyFileSync(join(repoRoot, "package.json"), join(base, "package.json"));

describe("the launcher without dist/", () => {
  it.each([
    ["a command (the CLI bundle)", ["resume"], 3],
    ["--help (the help module)", ["--help"], 3],
    ["CMD --help", ["resume", "--help"], 3],
    ["--version", ["--version"], 3],
    // The hook protocol's "block": an unbuilt guard must not let a sealed read through.
    ["the guard", ["guard"], 2],
  ])("%s: exit %s, names the missing build and the fix", async (_name, args, code) => {
    const run = await runProgram(process.execPath, [join(base, "bin", "handoff.cjs"), ...args], { cwd: base });
    expect(run.code).toBe(code);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`the CLI is not built (${join(base, "dist")} is missing files)`);
    expect(run.stderr).toContain("npm install");
  });
});
