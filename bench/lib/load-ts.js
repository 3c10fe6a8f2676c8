// Benchmarks are plain Node scripts; Node 20 cannot import .ts, so this bundles a TypeScript
// module (and what it imports) with esbuild into a temporary .mjs and imports that.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Imports `relativePath` (from the repo root, e.g. "shared/redact/index.ts"). */
export async function loadTs(relativePath) {
  const dir = mkdtempSync(join(tmpdir(), "handoff-bench-"));
  const outfile = join(dir, "module.mjs");
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [relativePath],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median wall time in milliseconds of `fn` over `runs` runs, after `warmup` unmeasured runs. */
export async function medianMs(fn, { runs = 15, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** One line a benchmark prints: name, the two medians and their ratio against the goal. */
export function report(name, measuredMs, baselineMs, goal) {
  const ratio = measuredMs / baselineMs;
  const verdict = goal === undefined ? "" : ` (goal ${goal.op} ${goal.value}: ${goal.op === "<=" ? (ratio <= goal.value ? "met" : "missed") : ratio >= goal.value ? "met" : "missed"})`;
  console.log(`${name}: ${measuredMs.toFixed(2)} ms / baseline ${baselineMs.toFixed(2)} ms = ratio ${ratio.toFixed(2)}${verdict}`);
  return ratio;
}
