// `handoff create` in a git repository of 500 files against a floor script that does the least
// any create must: start Node, run one `git status --porcelain=v2 --branch`, write one file.
// Goal: ratio <= 1.5. Both run in the same repo, spawned the same way, in the same run.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { medianMs, report } from "./lib/load-ts.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.cjs", import.meta.url));

const base = mkdtempSync(join(tmpdir(), "handoff-bench-create-"));
try {
  const repo = join(base, "repo");
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid" };
  mkdirSync(repo);
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env: gitEnv });
  for (let i = 0; i < 500; i++) {
    mkdirSync(join(repo, `dir${i % 20}`), { recursive: true });
    writeFileSync(join(repo, `dir${i % 20}`, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  execFileSync("git", ["add", "-A"], { cwd: repo, env: gitEnv });
  execFileSync("git", ["commit", "-q", "-m", "500 files"], { cwd: repo, env: gitEnv });
  const body = join(base, "body.md");
  writeFileSync(body, "# Bench handoff\n\nA body of ordinary size. Next: more work.\n".repeat(20));

  const floor = join(base, "floor.mjs");
  writeFileSync(
    floor,
    `import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
const status = execFileSync("git", ["status", "--porcelain=v2", "--branch"], { cwd: process.argv[2], encoding: "utf8" });
writeFileSync(process.argv[3], status, { mode: 0o600 });
`,
  );

  const env = { ...process.env, HANDOFF_ROOT: join(base, "store") };
  let n = 0;
  const runCreate = () => {
    n++;
    const result = spawnSync(process.execPath, [bin, "create", "--body-file", body, "--title", `Bench ${n}`, "--keyword", "bench"], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
    if (result.status !== 0) throw new Error(`handoff create exited ${result.status}: ${result.stderr}`);
  };
  const runFloor = () => {
    n++;
    const result = spawnSync(process.execPath, [floor, repo, join(base, `floor-${n}.txt`)], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    if (result.status !== 0) throw new Error(`floor exited ${result.status}: ${result.stderr}`);
  };

  // Alternate floor and create runs so background load on the machine hits both alike.
  const floorTimes = [];
  const createTimes = [];
  for (let i = 0; i < 25; i++) {
    floorTimes.push(await medianMs(runFloor, { runs: 1, warmup: i === 0 ? 3 : 0 }));
    createTimes.push(await medianMs(runCreate, { runs: 1, warmup: i === 0 ? 3 : 0 }));
  }
  const mid = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  report("handoff create (500-file repo) / node + git status + write", mid(createTimes), mid(floorTimes), { op: "<=", value: 1.5 });
} finally {
  rmSync(base, { recursive: true, force: true });
}
