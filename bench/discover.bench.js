// Discovery benchmarks (issues 3 and 26), whole processes on every side:
//  1. Marginal cost per file: (`handoff resume` over 10,000 handoffs of 8 KiB - the same over an
//     empty store) / (a raw head-scan over the same files - the same scan over an empty folder).
//     The raw scan opens each file, reads its first 4 KiB and finds the closing delimiter, no
//     parsing. Subtracting the empty runs takes start-up out of both sides. Goal <= 1.3.
//     Also printed: the whole-process ratio (10,000 files, start-up included).
//  2. discovery over 2,000 files of 64 KiB / 2,000 files of 8 KiB with the same frontmatter: goal
//     <= 1.2, which shows that bodies are not read.
// `--against DIR` measures another built checkout (e.g. main's) in the same interleaved rounds and
// prints its figures beside these.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { medianMs, report, repoRoot } from "./lib/load-ts.js";

const cli = join(repoRoot, "bin", "handoff.cjs");
const againstAt = process.argv.indexOf("--against");
const againstCli = againstAt === -1 ? undefined : join(resolve(process.argv[againstAt + 1]), "bin", "handoff.cjs");

function frontmatter(i) {
  return [
    "---",
    'artifact_contract: "ce-handoff/v1"',
    `created_at: "2026-11-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z"`,
    `title: "Handoff number ${i} about topic ${i % 97}"`,
    `summary: "Work on subsystem ${i % 13} left mid-way"`,
    `keywords: ["topic-${i % 97}", "subsystem-${i % 13}"]`,
    'cwd: "/work/project"',
    "---",
    "",
  ].join("\n");
}

function makeStore(count, bodyBytes) {
  const root = mkdtempSync(join(tmpdir(), "handoff-bench-discover-"));
  const dir = join(root, "ce-handoff", "project-0123456789ab");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const filler = "Lorem ipsum dolor sit amet, pointer-first handoff body line.\n";
  for (let i = 0; i < count; i++) {
    const head = frontmatter(i);
    const body = filler.repeat(Math.ceil((bodyBytes - head.length) / filler.length)).slice(0, Math.max(0, bodyBytes - head.length));
    writeFileSync(join(dir, `handoff-${i}.md`), head + body, { mode: 0o600 });
  }
  return root;
}

const rawScanScript = `
const fs = require("node:fs"), path = require("node:path");
const buf = Buffer.alloc(4096);
let heads = 0;
function walk(d) { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
  const p = path.join(d, e.name);
  if (e.isDirectory()) walk(p);
  else if (e.isFile()) { const fd = fs.openSync(p, "r"); const n = fs.readSync(fd, buf, 0, 4096, 0); fs.closeSync(fd); if (buf.subarray(0, n).indexOf("\\n---\\n", 3) !== -1) heads++; } } }
walk(process.argv[1]);
process.exitCode = heads >= 0 ? 0 : 1;`;

// Node loads a CA bundle named there at start-up: not part of what is measured.
const baseEnv = { ...process.env };
delete baseEnv.NODE_EXTRA_CA_CERTS;

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { env: { ...baseEnv, ...env }, encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
}

function discover(root, bin = cli) {
  return () => run(process.execPath, [bin, "resume", "--json", "--max-candidates", "20000"], { HANDOFF_ROOT: root, NO_COLOR: "1" });
}

/**
 * Interleaved runs, medians of each: the page cache and other work on the machine change over a
 * run (this machine's memory reclaim evicts cold pages), so every side must share them.
 */
async function interleaved(commands, rounds) {
  const times = commands.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [k, command] of commands.entries()) times[k].push(await medianMs(command, { runs: 1, warmup: i === 0 ? 1 : 0 }));
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return times.map(median);
}

const ROUNDS = Number(process.env.HANDOFF_BENCH_ROUNDS ?? 15);
const big = makeStore(10_000, 8 * 1024);
const empty = makeStore(0, 0);
const rawScan = (root) => () => run(process.execPath, ["-e", rawScanScript, join(root, "ce-handoff")]);
try {
  const sides = [rawScan(big), rawScan(empty), discover(big), discover(empty)];
  if (againstCli) sides.push(discover(big, againstCli), discover(empty, againstCli));
  const [scanBig, scanEmpty, ours, emptyMs, theirs, theirEmptyMs] = await interleaved(sides, ROUNDS);
  const perFile = (total, start) => ((total - start) / 10_000) * 1000;
  console.log(
    `  marginal per file: handoff resume ${perFile(ours, emptyMs).toFixed(1)} µs (${ours.toFixed(1)} - ${emptyMs.toFixed(1)} ms), raw head-scan ${perFile(scanBig, scanEmpty).toFixed(1)} µs (${scanBig.toFixed(1)} - ${scanEmpty.toFixed(1)} ms)`,
  );
  report("discovery marginal cost per file over 10,000 x 8 KiB / raw head-scan's", ours - emptyMs, scanBig - scanEmpty, { op: "<=", value: 1.3 });
  report("  whole processes, start-up included (information)", ours, scanBig);
  if (againstCli) {
    console.log(`  [against] marginal per file: ${perFile(theirs, theirEmptyMs).toFixed(1)} µs (${theirs.toFixed(1)} - ${theirEmptyMs.toFixed(1)} ms)`);
    report("  [against] discovery marginal cost per file / raw head-scan's", theirs - theirEmptyMs, scanBig - scanEmpty, { op: "<=", value: 1.3 });
  }
} finally {
  rmSync(big, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}

const small = makeStore(2_000, 8 * 1024);
const large = makeStore(2_000, 64 * 1024);
try {
  const sides = [discover(large), discover(small)];
  if (againstCli) sides.push(discover(large, againstCli), discover(small, againstCli));
  const [largeMs, smallMs, theirLargeMs, theirSmallMs] = await interleaved(sides, ROUNDS);
  report("discovery over 2,000 x 64 KiB / 2,000 x 8 KiB", largeMs, smallMs, { op: "<=", value: 1.2 });
  if (againstCli) report("  [against] discovery over 2,000 x 64 KiB / 2,000 x 8 KiB", theirLargeMs, theirSmallMs, { op: "<=", value: 1.2 });
} finally {
  rmSync(small, { recursive: true, force: true });
  rmSync(large, { recursive: true, force: true });
}
