// One `handoff guard` decision (a PreToolUse hook: it runs on every tool call) against bare Node
// start-up (`node -e 0`), both spawned the same way with NODE_EXTRA_CA_CERTS unset. Measured
// three ways: no manifest active (the common case), a sealed manifest blocking a Read, and a
// sealed manifest judging a Bash command. Goal: ratio <= 1.35 for each.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { medianMs, report } from "./lib/load-ts.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.cjs", import.meta.url));

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-guard-bench-")));
try {
  const plain = join(base, "plain");
  const sealed = join(base, "sealed");
  for (const repo of [plain, sealed]) {
    mkdirSync(join(repo, "src"), { recursive: true });
    execFileSync("git", ["init", "-q", repo]);
  }
  mkdirSync(join(sealed, "_meta"));
  writeFileSync(
    join(sealed, "_meta", ".active-manifest.json"),
    JSON.stringify({ manifest: "m.json", schema: "kernel.handoff/v1", mode: "sealed", forbidden: ["secrets/**", "keys/*.pem"], allowlist: ["src/a.ts"], activated: "2026-07-10T21:45:00Z" }),
  );
  const event = (cwd, tool_name, tool_input) =>
    JSON.stringify({ session_id: "s", transcript_path: "/dev/null", cwd, permission_mode: "default", hook_event_name: "PreToolUse", tool_name, tool_input });
  const cases = [
    ["no manifest active, Read", plain, event(plain, "Read", { file_path: join(plain, "src/a.ts") }), 0],
    ["sealed, Read of a forbidden file", sealed, event(sealed, "Read", { file_path: join(sealed, "secrets/key.pem") }), 2],
    ["sealed, Bash", sealed, event(sealed, "Bash", { command: "git status && grep -rn TODO src | head -20" }), 0],
  ];

  const run = (args, cwd, input, expected) => {
    const result = spawnSync(process.execPath, args, { cwd, env, input, stdio: ["pipe", "pipe", "pipe"] });
    if (result.status !== expected) throw new Error(`${args.join(" ")} exited ${result.status}, expected ${expected}: ${result.stderr}`);
  };
  const median = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  for (const [name, cwd, input, expected] of cases) {
    // Interleaved, one baseline run then one measured run, so load elsewhere falls on both alike.
    const baseline = [];
    const measured = [];
    for (let i = 0; i < 31; i++) {
      baseline.push(await medianMs(() => run(["-e", "0"], cwd, input, 0), { runs: 1, warmup: i === 0 ? 3 : 0 }));
      measured.push(await medianMs(() => run([bin, "guard"], cwd, input, expected), { runs: 1, warmup: i === 0 ? 3 : 0 }));
    }
    report(`handoff guard (${name}) / node -e 0`, median(measured), median(baseline), { op: "<=", value: 1.35 });
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
