// Kernel manifest costs, each as a ratio against a baseline measured in the same run:
// - strict parse of a ~1 MiB manifest / JSON.parse of the same text (duplicate-key checking and
//   positions cost a JS parser against V8's native one; goal <= 6);
// - the same at 4x the input (linear time: the ratio does not grow; goal <= 6);
// - strict parse + schema + rules of the real manifest / JSON.parse of it (what validate adds);
// - matchGlob with a pattern that explodes backtracking matchers, 4x path / 1x (linear: goal <= 5).
import { readFileSync } from "node:fs";
import { loadTs, medianMs, report, repoRoot } from "./lib/load-ts.js";

const { parseStrictJson } = await loadTs("shared/kernel/strict-json.ts");
const { validateKernelText } = await loadTs("shared/kernel/validate.ts");
const { matchGlob } = await loadTs("shared/repo/glob.ts");

const example = readFileSync(`${repoRoot}test/fixtures/kernel/example.yaml-skill-unification-2026-07-10.json`, "utf8");

function bigManifest(selectors) {
  const manifest = JSON.parse(example);
  manifest.context.optional = Array.from({ length: selectors }, (_, i) => ({
    path: `src/module-${i}/index.ts`,
    grep: `function handler${i}\\(`,
    context: 3,
    reason: `selector ${i}: the handler the next session must read before touching routing`,
  }));
  return JSON.stringify(manifest, null, 2);
}

const big = bigManifest(5_000);
const bigger = bigManifest(20_000);
console.log(`inputs: ${(big.length / 1024).toFixed(0)} KiB and ${(bigger.length / 1024).toFixed(0)} KiB`);

const baseBig = await medianMs(() => JSON.parse(big));
const strictBig = await medianMs(() => parseStrictJson(big));
report("strict parse 1 MiB / JSON.parse", strictBig, baseBig, { op: "<=", value: 6 });

// Linear time: the ratio against JSON.parse must not grow with the input. (Raw 4x/1x timings
// are dominated by allocation and GC here, for JSON.parse too, so they are not the yardstick.)
const strictBigger = await medianMs(() => parseStrictJson(bigger));
const baseBigger = await medianMs(() => JSON.parse(bigger));
report("strict parse 4 MiB / JSON.parse", strictBigger, baseBigger, { op: "<=", value: 6 });

const baseExample = await medianMs(() => {
  for (let i = 0; i < 200; i++) JSON.parse(example);
});
const validateExample = await medianMs(() => {
  for (let i = 0; i < 200; i++) validateKernelText(example);
});
report("validate real manifest x200 / JSON.parse x200", validateExample, baseExample);

const hostilePattern = `${"*a".repeat(20)}b`;
const short = "a".repeat(2_000);
const long = "a".repeat(8_000);
const globShort = await medianMs(() => matchGlob(hostilePattern, short));
const globLong = await medianMs(() => matchGlob(hostilePattern, long));
report("glob hostile pattern on 4x path / 1x path", globLong, globShort, { op: "<=", value: 5 });
