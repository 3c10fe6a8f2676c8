// Start-up of the commands people and agents run (issue 26), whole processes, each against bare
// Node start-up (`node -e 0`) measured in the same rounds:
//   resume --json over an empty store, list --json, scan FILE, validate of kernel's real manifest,
//   show FILE: goal <= 1.5 each;
//   create --to DIR: goal <= 1.5 against its floor, node plus as many `git rev-parse HEAD` spawns
//   as create itself makes (counted here, through a logging `git` first on PATH);
//   --help (goal <= 1.25) and the guard hook with no manifest active (goal <= 1.35) keep theirs.
// Rounds are interleaved (every command once per round, the order rotated each round) and each
// figure is a median, so load from other work on the machine falls on every side alike. It runs
// under this Node and under Node 22 and 24 where scripts/test-nodes.js installed them.
// `--against DIR` adds the same rows for another built checkout (e.g. main) in the same rounds.
// `--cpu` measures CPU time (Linux perf's task-clock of the process and its children, git's
// included) instead of wall time: on a machine other work shares, wall time moves with the load
// (node -e 0 from 26 to 95 ms within one run) and CPU time much less. It needs `perf` on PATH.
// docs/startup.md gives each command's budget and the last run before and after a change.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { repoRoot } from "./lib/load-ts.js";
import { nodeBinaries } from "./lib/node-versions.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();

const ROUNDS = Number(process.env.HANDOFF_BENCH_ROUNDS ?? 21);
const againstAt = process.argv.indexOf("--against");
const launchers = [{ name: "", bin: join(repoRoot, "bin", "handoff.cjs") }];
const cpu = process.argv.includes("--cpu");
if (cpu && spawnSync("perf", ["stat", "-x", ",", "-e", "task-clock", "--", "true"], { stdio: "ignore" }).status !== 0) {
  console.error("--cpu measures with Linux perf (perf stat -e task-clock), which does not run here: install it, or measure wall time without --cpu");
  process.exit(2);
}
if (againstAt !== -1) launchers.push({ name: " [against]", bin: join(resolve(process.argv[againstAt + 1]), "bin", "handoff.cjs") });

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-commands-bench-")));
/** The task-clock (ms) in `perf stat -x ,` output. */
const taskClock = (csv) => Number(/^([\d.]+),[^,]*,task-clock/m.exec(csv)?.[1]);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

try {
  const repo = join(base, "repo");
  const home = join(base, "home");
  const store = join(base, "store");
  const emptyStore = join(base, "empty-store");
  const out = join(base, "out");
  for (const dir of [repo, home, store, emptyStore, out]) mkdirSync(dir, { recursive: true, mode: 0o700 });

  // A hermetic environment: no CA bundle to load, no developer config, token or server.
  const env = { ...process.env, HOME: home, NO_COLOR: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid" };
  for (const name of Object.keys(env)) if (name === "NODE_EXTRA_CA_CERTS" || name.startsWith("HANDOFF_") || name.startsWith("XDG_") || name === "NODE_OPTIONS") delete env[name];

  // A repository of 200 files, one commit, as an agent's checkout might be.
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env });
  for (let i = 0; i < 200; i++) {
    mkdirSync(join(repo, `dir${i % 10}`), { recursive: true });
    writeFileSync(join(repo, `dir${i % 10}`, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  execFileSync("git", ["add", "-A"], { cwd: repo, env });
  execFileSync("git", ["commit", "-q", "-m", "200 files"], { cwd: repo, env });

  const body = join(base, "body.md");
  // A body create accepts (it refuses one with no current state) and resume would call sufficient.
  writeFileSync(
    body,
    `# Bench handoff\n\n${"Decided to keep the retry path. Next: wire the backoff into the client.\n".repeat(20)}\n## Current state\n\nThe retry path is in; the backoff is not wired yet.\n`,
  );
  const manifest = join(base, "manifest.json");
  copyFileSync(join(repoRoot, "test", "fixtures", "kernel", "example.yaml-skill-unification-2026-07-10.json"), manifest);

  // A logging git first on PATH, only to count the spawns of each command once.
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const shim = join(base, "shim");
  mkdirSync(shim);
  writeFileSync(join(shim, "git"), `#!/bin/sh\necho x >> "$GIT_COUNT_LOG"\nexec ${realGit} "$@"\n`);
  chmodSync(join(shim, "git"), 0o755);

  // With --cpu, perf writes each run's task-clock here (not to stderr, which is the command's).
  const cpuLog = join(base, "task-clock.csv");
  let lastCpuMs;
  const run = (node, args, { cwd = repo, input, extraEnv, expect = [0] } = {}) => {
    const [program, argv] = cpu ? ["perf", ["stat", "-x", ",", "-e", "task-clock", "-o", cpuLog, "--", node, ...args]] : [node, args];
    const result = spawnSync(program, argv, { cwd, env: { ...env, ...extraEnv }, input, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    if (!expect.includes(result.status)) throw new Error(`${args.slice(0, 3).join(" ")} exited ${result.status}: ${result.stderr}`);
    if (cpu) lastCpuMs = taskClock(readFileSync(cpuLog, "utf8"));
    return result.stdout.toString();
  };

  // The store that list and show read: ten handoffs written by create itself.
  const seeded = [];
  for (let i = 0; i < 10; i++) {
    run(process.execPath, [launchers[0].bin, "create", "--body-file", body, "--title", `Seed ${i}`, "--keyword", "bench"], { extraEnv: { HANDOFF_ROOT: store } });
  }
  for (const line of JSON.parse(run(process.execPath, [launchers[0].bin, "list", "--json"], { extraEnv: { HANDOFF_ROOT: store } })).handoffs) seeded.push(line.path);
  const shown = seeded[0];

  const guardEvent = JSON.stringify({
    session_id: "s",
    transcript_path: "/dev/null",
    cwd: repo,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(repo, "dir0", "file0.ts") },
  });
  let created = 0;
  /** The measured commands, each `(node, bin) => void`, and its goal against node -e 0 (or the floor). */
  const commands = [
    { name: "--help", goal: 1.25, run: (node, bin) => run(node, [bin, "--help"]) },
    { name: "guard (no manifest active)", goal: 1.35, run: (node, bin) => run(node, [bin, "guard"], { input: guardEvent }) },
    { name: "resume --json (empty store)", goal: 1.5, run: (node, bin) => run(node, [bin, "resume", "--json"], { extraEnv: { HANDOFF_ROOT: emptyStore }, expect: [0, 1] }) },
    { name: "list --json", goal: 1.5, run: (node, bin) => run(node, [bin, "list", "--json"], { extraEnv: { HANDOFF_ROOT: store } }) },
    { name: "scan body.md", goal: 1.5, run: (node, bin) => run(node, [bin, "scan", body]) },
    { name: "validate (kernel's manifest)", goal: 1.5, run: (node, bin) => run(node, [bin, "validate", manifest]) },
    { name: "show FILE", goal: 1.5, run: (node, bin) => run(node, [bin, "show", shown], { extraEnv: { HANDOFF_ROOT: store } }) },
    {
      name: "create --to DIR",
      goal: 1.5,
      floor: true,
      run: (node, bin) => run(node, [bin, "create", "--body-file", body, "--title", `Bench ${++created}`, "--keyword", "bench", "--to", `${out}/`], { extraEnv: { HANDOFF_ROOT: store } }),
    },
  ];

  // git spawns per command, counted once through the shim.
  const gitCalls = new Map();
  for (const launcher of launchers)
    for (const command of commands) {
      const log = join(base, "git-count.log");
      writeFileSync(log, "");
      const saved = { ...env };
      env.PATH = `${shim}:${env.PATH}`;
      env.GIT_COUNT_LOG = log;
      try {
        command.run(process.execPath, launcher.bin);
      } finally {
        env.PATH = saved.PATH;
        delete env.GIT_COUNT_LOG;
      }
      gitCalls.set(command.name + launcher.name, readFileSync(log, "utf8").split("\n").filter(Boolean).length);
    }
  // One floor per distinct count of create's git spawns (this checkout's, and --against's).
  const floorCounts = [...new Set(launchers.map((launcher) => gitCalls.get(`create --to DIR${launcher.name}`)))];
  const floorScript = (count) =>
    `const { spawnSync } = require("node:child_process"); for (let i = 0; i < ${count}; i++) spawnSync("git", ["rev-parse", "HEAD"], { stdio: ["ignore", "pipe", "pipe"] });`;

  const { found, missing } = nodeBinaries();
  for (const why of missing) console.log(`not measured: ${why}`);
  for (const { label, path: node } of found) {
    const rows = [
      { name: "node -e 0", run: () => run(node, ["-e", "0"]) },
      ...floorCounts.map((count) => ({ name: `floor: node + ${count} x git rev-parse HEAD`, count, run: () => run(node, ["-e", floorScript(count)]) })),
      ...launchers.flatMap((launcher) => commands.map((command) => ({ ...command, name: command.name + launcher.name, run: () => command.run(node, launcher.bin) }))),
    ];
    for (const row of rows) row.run(); // warm-up: page cache, compile cache
    const times = rows.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < rows.length; k++) {
        const index = (k + round) % rows.length;
        const start = performance.now();
        rows[index].run();
        times[index].push(cpu ? lastCpuMs : performance.now() - start);
      }
    }
    const medians = times.map(median);
    const nodeMs = medians[0];
    const floorMs = (count) => medians[rows.findIndex((row) => row.count === count)];
    const floors = floorCounts.map((count) => `${count} git: ${floorMs(count).toFixed(1)} ms`).join(", ");
    console.log(`\n${label}, ${ROUNDS} interleaved rounds, medians of ${cpu ? "CPU time" : "wall time"}; node -e 0 = ${nodeMs.toFixed(1)} ms; floor (node + create's git spawns) ${floors}`);
    console.log("| command | git spawns | ms | ratio | against | goal |");
    console.log("| --- | ---: | ---: | ---: | --- | --- |");
    rows.forEach((row, k) => {
      if (!row.goal) return;
      const git = gitCalls.get(row.name);
      const ratio = medians[k] / (row.floor ? floorMs(git) : nodeMs);
      console.log(`| ${row.name} | ${git} | ${medians[k].toFixed(1)} | ${ratio.toFixed(2)} | ${row.floor ? "floor" : "node -e 0"} | <= ${row.goal}: ${ratio <= row.goal ? "met" : "missed"} |`);
    });
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
