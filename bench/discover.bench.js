// Discovery benchmarks (issue 3), whole processes both sides:
//  1. `handoff resume` over 10,000 handoffs of 8 KiB / a raw head-scan script over the same files
//     (open, read 2 KiB, close; no parsing): goal <= 1.5.
//     Also printed, from the same run: what starting the CLI costs on its own (`handoff resume`
//     over an empty store, less `node -e 0`: loading the CLI, asking git which checkout this is),
//     as a share of the raw scan, and what the goal then leaves for enumerating, parsing and
//     ranking the 10,000 files.
//  2. discovery over 2,000 files of 64 KiB / 2,000 files of 8 KiB with the same frontmatter: goal
//     <= 1.2, which shows that bodies are not read.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs, report, repoRoot } from "./lib/load-ts.js";

const cli = join(repoRoot, "bin", "handoff.cjs");

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

const rawScan = `
const fs = require("node:fs"), path = require("node:path");
const buf = Buffer.alloc(2048);
function walk(d) { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
  const p = path.join(d, e.name);
  if (e.isDirectory()) walk(p); else if (e.isFile()) { const fd = fs.openSync(p, "r"); fs.readSync(fd, buf, 0, 2048, 0); fs.closeSync(fd); } } }
walk(process.argv[1]);`;

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
}

function discover(root) {
  return () => run(process.execPath, [cli, "resume", "--json", "--max-candidates", "20000"], { HANDOFF_ROOT: root, NO_COLOR: "1" });
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

const big = makeStore(10_000, 8 * 1024);
const empty = mkdtempSync(join(tmpdir(), "handoff-bench-empty-"));
try {
  const [theirs, ours, emptyMs, nodeMs] = await interleaved(
    [() => run(process.execPath, ["-e", rawScan, join(big, "ce-handoff")]), discover(big), discover(empty), () => run(process.execPath, ["-e", "0"])],
    9,
  );
  report("discovery of 10,000 handoffs of 8 KiB / raw head scan", ours, theirs, { op: "<=", value: 1.5 });
  const startUp = (emptyMs - nodeMs) / theirs;
  console.log(
    `  start-up alone (handoff over an empty store ${emptyMs.toFixed(2)} ms - node -e 0 ${nodeMs.toFixed(2)} ms) is ${startUp.toFixed(2)} of the raw scan: ` +
      `the goal leaves ${(0.5 - startUp).toFixed(2)} of it (${((0.5 - startUp) * theirs).toFixed(1)} ms) for enumerating, parsing and ranking 10,000 files`,
  );
} finally {
  rmSync(big, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}

const small = makeStore(2_000, 8 * 1024);
const large = makeStore(2_000, 64 * 1024);
try {
  const [largeMs, smallMs] = await interleaved([discover(large), discover(small)], 9);
  report("discovery over 2,000 x 64 KiB / 2,000 x 8 KiB", largeMs, smallMs, { op: "<=", value: 1.2 });
} finally {
  rmSync(small, { recursive: true, force: true });
  rmSync(large, { recursive: true, force: true });
}
