// One `handoff guard` decision (a PreToolUse hook: it runs on every tool call) against bare Node
// start-up (`node -e 0`), both spawned the same way with NODE_EXTRA_CA_CERTS unset, one baseline
// run then one measured run so load elsewhere falls on both alike. The events are the guard
// table's (test/client/guard-table.ts), under its sealed manifest, plus the common case of no
// manifest at all. Goal: ratio <= 1.35 on the common events (Read, Grep, simple Bash), measured
// 21 times each (with their CPU time, steadier on a busy machine); every other event of the table
// is measured 5 times and printed for reference.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadTs, report } from "./lib/load-ts.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.cjs", import.meta.url));
const { buildTableSandbox, TABLE } = await loadTs("test/client/guard-table.ts");

/** The table's events measured against the goal: the reads and searches an agent makes most. */
const COMMON = [
  "Read of a safe file",
  "Read of the sealed file",
  "Grep of a safe folder",
  "Grep with no path",
  "reading a safe file through a redirection",
  "a quoted safe path with spaces",
  "git status and branch",
  "grep -rn of safe folders",
];

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-guard-bench-")));
try {
  const box = buildTableSandbox(base);
  const env = { ...process.env, ...box.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const armed = spawnSync(process.execPath, [bin, "context", "sealed.json", "--activate"], { cwd: box.repo, env, encoding: "utf8" });
  if (armed.status !== 0) throw new Error(`activation failed: ${armed.stderr}`);
  const plain = join(base, "plain");
  mkdirSync(join(plain, "src"), { recursive: true });
  writeFileSync(join(plain, "src", "a.ts"), "export const a = 1;\n");
  spawnSync("git", ["init", "-q", plain]);
  const unsealed = (name, tool, input) => ({
    name: `no manifest active, ${name}`,
    cwd: plain,
    input: JSON.stringify({
      session_id: "s",
      transcript_path: "/dev/null",
      cwd: plain,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: input,
      tool_use_id: "t",
    }),
    expected: 0,
  });

  // Each process also reports the CPU time it used (a preload both kinds of run get): on a busy
  // machine wall time swings with other load, CPU time much less, so the CPU ratio is printed too.
  const preload = join(base, "cpu.cjs");
  writeFileSync(preload, 'process.on("exit", () => { const c = process.cpuUsage(); require("node:fs").writeSync(3, String((c.user + c.system) / 1000)); });\n');
  const cpu = new Map();
  const run = (args, cwd, input, expected) => {
    const start = performance.now();
    const result = spawnSync(process.execPath, ["-r", preload, ...args], { cwd, env, input, stdio: ["pipe", "pipe", "pipe", "pipe"] });
    const elapsed = performance.now() - start;
    if (result.status !== expected) throw new Error(`${args.join(" ")} exited ${result.status}, expected ${expected}: ${result.stderr}`);
    cpu.set(args, Number(String(result.output[3])));
    return elapsed;
  };
  const median = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const measure = ({ name, cwd, input, expected }, rounds, goal) => {
    const baseline = [];
    const measured = [];
    const cpuBaseline = [];
    const cpuMeasured = [];
    const baseArgs = ["-e", "0"];
    const guardArgs = [bin, "guard"];
    for (let i = -2; i < rounds; i++) {
      const b = run(baseArgs, cwd, input, 0);
      const bCpu = cpu.get(baseArgs);
      const m = run(guardArgs, cwd, input, expected);
      if (i < 0) continue;
      baseline.push(b);
      measured.push(m);
      cpuBaseline.push(bCpu);
      cpuMeasured.push(cpu.get(guardArgs));
    }
    const ratio = report(`handoff guard (${name}) / node -e 0`, median(measured), median(baseline), goal);
    if (goal) console.log(`  CPU time: ${median(cpuMeasured).toFixed(2)} ms / ${median(cpuBaseline).toFixed(2)} ms = ratio ${(median(cpuMeasured) / median(cpuBaseline)).toFixed(2)}`);
    return ratio;
  };

  const events = TABLE.map((c) => ({ name: `${c.class}: ${c.name}`, cwd: box.cwdOf(c.at), input: box.payload(c), expected: c.expected, common: COMMON.includes(c.name) }));
  const missing = COMMON.filter((name) => !TABLE.some((c) => c.name === name));
  if (missing.length > 0) throw new Error(`the table has no event named ${missing.join(", ")}`);
  console.log("-- common events (goal <= 1.35)");
  let missed = 0;
  for (const event of [
    unsealed("Read", "Read", { file_path: join(plain, "src/a.ts") }),
    unsealed("Bash", "Bash", { command: "git status && grep -rn TODO src | head -20" }),
    ...events.filter((e) => e.common),
  ]) {
    if (measure(event, 21, { op: "<=", value: 1.35 }) > 1.35) missed++;
  }
  console.log("-- every other event of the table (for reference)");
  for (const event of events.filter((e) => !e.common)) measure(event, 5);
  if (missed > 0) process.exitCode = 1;
} finally {
  rmSync(base, { recursive: true, force: true });
}
