// `handoff --help` wall time against bare Node start-up (`node -e ''`), both spawned the same way.
// Goal: ratio <= 1.25. The CLI must load nothing but its entry on this path (no zod, no yaml).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { medianMs, report, repoRoot } from "./lib/load-ts.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.js", import.meta.url));

function spawnOk(args) {
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
}

// Interleaved, one baseline run then one measured run, so load from other work on the machine
// falls on both sides alike.
const baseline = [];
const measured = [];
for (let i = 0; i < 35; i++) {
  baseline.push(await medianMs(() => spawnOk(["-e", ""]), { runs: 1, warmup: i === 0 ? 3 : 0 }));
  measured.push(await medianMs(() => spawnOk([bin, "--help"]), { runs: 1, warmup: i === 0 ? 3 : 0 }));
}
const median = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
report("handoff --help / node -e ''", median(measured), median(baseline), { op: "<=", value: 1.25 });
