// `handoff create --publish` against the local server (real wrangler dev, loopback) / `handoff
// create --local`: same repo, same body, both whole processes spawned the same way, alternated so
// background load hits both alike. Goal: publishing adds less than one local create (ratio < 2).
// Bounded: a fixed number of runs (fewer publishes than the server's 60-a-minute limit), and the
// whole run stops after MAX_SECONDS; the script starts and stops its own server.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startLocalServer } from "../scripts/local-server.js";
import { report } from "./lib/load-ts.js";

const RUNS = 15;
const WARMUP = 3;
const MAX_SECONDS = 180;

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.cjs", import.meta.url));

const base = mkdtempSync(join(tmpdir(), "handoff-bench-publish-"));
const server = await startLocalServer({ persistTo: join(base, "server-state"), vars: { ALLOW_ANONYMOUS_PUBLISH: "true" } });
const guard = setTimeout(() => {
  console.error(`publish: stopped after ${MAX_SECONDS} s`);
  server.stop().finally(() => process.exit(1));
}, MAX_SECONDS * 1000);
try {
  const repo = join(base, "repo");
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid" };
  mkdirSync(repo);
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env: gitEnv });
  for (let i = 0; i < 50; i++) writeFileSync(join(repo, `file${i}.ts`), `export const value${i} = ${i};\n`);
  execFileSync("git", ["add", "-A"], { cwd: repo, env: gitEnv });
  execFileSync("git", ["commit", "-q", "-m", "50 files"], { cwd: repo, env: gitEnv });
  const body = join(base, "body.md");
  writeFileSync(body, `# Bench handoff\n\n## Current state\n${"A body of ordinary size, about four kilobytes. ".repeat(80)}\n\n## Next steps\n- more work\n`);

  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(base, "home"),
    HANDOFF_ROOT: join(base, "store"),
    XDG_CONFIG_HOME: join(base, "config"),
    HANDOFF_SERVER: server.url,
    NO_COLOR: "1",
  };
  mkdirSync(env.HOME);
  let n = 0;
  const create = (mode) => {
    n++;
    const start = performance.now();
    const result = spawnSync(process.execPath, [bin, "create", "--body-file", body, "--title", `Bench ${n}`, mode], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`handoff create ${mode} exited ${result.status}: ${result.stderr}`);
    return ms;
  };

  for (let i = 0; i < WARMUP; i++) {
    create("--local");
    create("--publish");
  }
  const local = [];
  const published = [];
  for (let i = 0; i < RUNS; i++) {
    local.push(create("--local"));
    published.push(create("--publish"));
  }
  const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const [publishMs, localMs] = [median(published), median(local)];
  report("handoff create --publish (local server) / handoff create --local", publishMs, localMs, { op: "<=", value: 2 });
  console.log(`publishing adds ${(publishMs - localMs).toFixed(2)} ms per create (goal: less than one local create, ${localMs.toFixed(2)} ms)`);
} finally {
  clearTimeout(guard);
  await server.stop();
  rmSync(base, { recursive: true, force: true });
}
