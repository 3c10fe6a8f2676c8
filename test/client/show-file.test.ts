import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { tempDir } from "./git-repo.js";

// `show FILE` takes a path of its own (issue 26: it no longer loads the share-link input module
// or checks stdin's terminal first); what it prints and refuses stays as it was.

beforeAll(ensureBuilt);
const dir = tempDir("handoff-show-file-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("show FILE", () => {
  it("prints the file, with stdin closed as an agent runs it", async () => {
    const file = join(dir, "h.md");
    writeFileSync(file, "# Retry path\n\nKeep the backoff.\n");
    const run = await runCli(["show", "h.md"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("# Retry path\n\nKeep the backoff.\n");
  });

  it("refuses --passphrase with a file, before reading it", async () => {
    const run = await runCli(["show", "missing.md", "--passphrase"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--passphrase goes with a share URL/);
    expect(run.stderr).toContain("handoff show --url-stdin --passphrase");
  });

  it("names a missing file", async () => {
    const run = await runCli(["show", "missing.md"], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot read missing\.md: no such file/);
  });
});
