// timestampMs (shared/time/timestamps.ts) / Date.parse over the 10,000 created_at values one discovery
// run orders, in the shapes tools write (ms and s precision, Z and offsets), each parsed once in a
// process that has just started, as discovery parses them: goal <= 1.2. A parser of our own in
// JavaScript runs in the interpreter for most of those 10,000 calls: the hand-rolled digit reader
// that was here took about 3x Date.parse's time that way (though 0.4x once warm), so timestampMs
// is Date.parse itself, and this bench keeps it from losing to it again. Same answers: checked first.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { repoRoot, report } from "./lib/load-ts.js";

const dir = mkdtempSync(join(tmpdir(), "handoff-bench-timestamps-"));
try {
  const module = join(dir, "timestamps.mjs");
  await build({ absWorkingDir: repoRoot, entryPoints: ["shared/time/timestamps.ts"], outfile: module, bundle: true, format: "esm", platform: "node", target: "node20", logLevel: "warning" });
  // One child per measurement: it builds the values, then times a single pass of one parser.
  const child = (parser) => `
    const { timestampMs } = await import(${JSON.stringify(pathToFileURL(module).href)});
    const start = Date.parse("2026-01-01T00:00:00Z");
    const values = Array.from({ length: 10_000 }, (_, i) => {
      const iso = new Date(start + i * 3_607_123).toISOString();
      return i % 4 === 0 ? iso : i % 4 === 1 ? iso.replace(/\\.\\d{3}Z$/, "Z") : i % 4 === 2 ? iso.slice(0, 19) + "+02:00" : iso.slice(0, 23) + "-05:30";
    });
    if (${parser === "check"}) {
      for (const value of values) if (timestampMs(value) !== Date.parse(value)) throw new Error("timestampMs and Date.parse disagree on " + value);
    }
    const parse = ${parser === "ours" ? "timestampMs" : "Date.parse"};
    let sink = 0;
    const t = performance.now();
    for (const value of values) sink += parse(value) ?? 0;
    process.stdout.write(String(performance.now() - t) + (sink === 42 ? " " : ""));`;
  const run = (parser) => {
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", child(parser)], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(result.stderr);
    return Number(result.stdout);
  };
  run("check");
  const ROUNDS = Number(process.env.HANDOFF_BENCH_ROUNDS ?? 21);
  const times = { ours: [], date: [] };
  for (let i = 0; i < ROUNDS; i++) for (const parser of ["ours", "date"]) times[parser].push(run(parser));
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  report("timestampMs x10,000 / Date.parse x10,000, each once in a fresh process", median(times.ours), median(times.date), { op: "<=", value: 1.2 });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
