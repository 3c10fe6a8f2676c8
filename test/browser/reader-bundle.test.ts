// The committed reader bundle must be what `npm run build:reader` makes of today's source.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

it("worker/page/reader-bundle.generated.ts is up to date (run `npm run build:reader` if not)", () => {
  const dir = mkdtempSync(join(tmpdir(), "handoff-reader-"));
  try {
    const fresh = join(dir, "reader-bundle.generated.ts");
    const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "build-reader.js"), "--out", fresh], { encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const committed = readFileSync(join(repoRoot, "worker", "page", "reader-bundle.generated.ts"), "utf8");
    // A boolean: a diff of two 40 KB one-line modules would help nobody.
    expect(readFileSync(fresh, "utf8") === committed, "stale: run `npm run build:reader` and commit the result").toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
