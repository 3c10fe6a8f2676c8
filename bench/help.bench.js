// `handoff --help` wall time against bare Node start-up (`node -e ''`), both spawned the same way:
// once for this checkout's launcher, once for the CLI as a user gets it (`npm pack`, installed
// from the tarball into a temporary prefix, run from a folder outside the project).
// Goal: ratio <= 1.25. The CLI must load nothing but its entry on this path (no zod, no yaml).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { medianMs, report, repoRoot } from "./lib/load-ts.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.cjs", import.meta.url));

function spawnOk(args, cwd = repoRoot) {
  const result = spawnSync(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return result.stdout.toString();
}

/** Interleaved, one baseline run then one measured run, so load from other work on the machine falls on both sides alike. */
async function bench(name, launcher, cwd) {
  const baseline = [];
  const measured = [];
  for (let i = 0; i < 35; i++) {
    baseline.push(await medianMs(() => spawnOk(["-e", ""], cwd), { runs: 1, warmup: i === 0 ? 3 : 0 }));
    measured.push(await medianMs(() => spawnOk([launcher, "--help"], cwd), { runs: 1, warmup: i === 0 ? 3 : 0 }));
  }
  const median = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  report(name, median(measured), median(baseline), { op: "<=", value: 1.25 });
}

await bench("handoff --help / node -e '' (this checkout)", bin, repoRoot);

const work = mkdtempSync(join(tmpdir(), "handoff-help-bench-"));
try {
  const npm = (args, cwd) => {
    const result = spawnSync("npm", [...args, "--cache", join(work, "npm-cache"), "--offline", "--no-audit", "--no-fund", "--loglevel", "error"], { cwd, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`npm ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    return result.stdout;
  };
  const [{ filename, name }] = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work], repoRoot));
  const prefix = join(work, "prefix");
  npm(["install", "--global", "--prefix", prefix, join(work, filename)], work);
  await bench("installed handoff --help / node -e ''", join(prefix, "lib", "node_modules", name, "bin", "handoff.cjs"), work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
