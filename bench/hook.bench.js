// `handoff hook` as the agents run it, each event spawned the way a hook is, against bare Node
// start-up (`node -e 0`) and, for PreCompact, against a raw read of the same transcript
// (`node -e "readFileSync(path)"`), all measured interleaved in the same run:
// - SessionStart (startup) in a repository with 200 handoffs in the store: discovery reads heads only.
// - SessionStart (compact): a pointer to the handoff written before the compaction.
// - PreCompact with a 10 MB Claude Code transcript: drafts and writes an automatic handoff.
// - SessionEnd with a 3 MB and a 200 MB transcript: the time until the hook returns, which Claude
//   Code bounds at 1.5 s for all SessionEnd hooks together (Codex at 3 s). SessionEnd reads a
//   transcript's first 1 MB and last 7 MB, so the 200 MB case should cost about what 8 MB does.
// SessionStart (startup) is also measured against `handoff resume --json` in the same folder, the
// same discovery from the CLI: the hook should cost no more than that. PreCompact's goal is well
// under a second; its ratio to the raw read says what drafting costs beyond reading the bytes.
// The transcripts are generated here (writeTranscript below), in a temp folder removed at the end.
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { medianMs, report } from "./lib/load-ts.js";

const { buildCli } = await import("../scripts/build-cli.js");
await buildCli();
const bin = fileURLToPath(new URL("../bin/handoff.cjs", import.meta.url));

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-hook-bench-")));
const gitEnv = {
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@example.invalid",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@example.invalid",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};
const env = { ...process.env, ...gitEnv, HOME: join(base, "home"), XDG_CONFIG_HOME: join(base, "config"), HANDOFF_ROOT: join(base, "store") };
delete env.NODE_EXTRA_CA_CERTS;
delete env.HANDOFF_AUTO;

try {
  const repo = join(base, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "README.md"), "# Bench\n");
  execFileSync("git", ["init", "-q", "-b", "main", repo], { env });
  execFileSync("git", ["add", "-A"], { cwd: repo, env });
  execFileSync("git", ["commit", "-q", "-m", "initial"], { cwd: repo, env });

  for (let i = 0; i < 200; i++) {
    const body = `# Bench handoff ${i}\n\n## Current state\nStep ${i} of the bench.\n`;
    const made = spawnSync(process.execPath, [bin, "create", "--title", `Bench handoff ${i}`], { cwd: repo, env, input: body });
    if (made.status !== 0) throw new Error(`create failed: ${made.stderr}`);
  }

  const transcript = join(base, "session.jsonl");
  writeTranscript(transcript, repo, 10 * 1024 * 1024);
  const size = statSync(transcript).size;
  const small = join(base, "session-3mb.jsonl");
  writeTranscript(small, repo, 3 * 1024 * 1024);
  const large = join(base, "session-200mb.jsonl");
  writeTranscript(large, repo, 200 * 1024 * 1024);

  const event = (fields) => JSON.stringify({ transcript_path: transcript, cwd: repo, permission_mode: "default", ...fields });
  const endEvent = (path) => () =>
    JSON.stringify({ session_id: `bench-end-${session++}`, transcript_path: path, cwd: repo, permission_mode: "default", hook_event_name: "SessionEnd", reason: "prompt_input_exit" });
  const run = (args, input) => {
    const result = spawnSync(process.execPath, args, { cwd: repo, env, input, stdio: ["pipe", "pipe", "pipe"] });
    if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    return result;
  };
  // The compact case needs a handoff written for its session first.
  const pre = run([bin, "hook"], event({ session_id: "bench-compact", hook_event_name: "PreCompact", trigger: "auto" }));
  if (!String(pre.stderr).includes("wrote an automatic handoff")) throw new Error(`PreCompact wrote nothing: ${pre.stderr}`);
  const started = run([bin, "hook"], event({ session_id: "bench-start", hook_event_name: "SessionStart", source: "startup" }));
  if (!String(started.stdout).includes("additionalContext")) throw new Error(`SessionStart found nothing: ${started.stdout}${started.stderr}`);

  const median = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const rawRead = ["-e", `require("node:fs").readFileSync(${JSON.stringify(transcript)})`];
  let session = 0;
  const cases = [
    [
      "SessionStart startup, 200 handoffs in the store",
      () => event({ session_id: "bench-start", hook_event_name: "SessionStart", source: "startup" }),
      21,
      ["handoff resume --json (the same discovery)", [bin, "resume", "--json"]],
    ],
    ["SessionStart compact", () => event({ session_id: "bench-compact", hook_event_name: "SessionStart", source: "compact" }), 21, undefined],
    // A new session each time: the rate limit would skip a second write for the same one.
    [
      `PreCompact, ${(size / 1024 / 1024).toFixed(1)} MB transcript`,
      () => event({ session_id: `bench-pre-${session++}`, hook_event_name: "PreCompact", trigger: "auto" }),
      9,
      ["a raw read of the file", rawRead],
    ],
    // A new session each time, so each run writes (the worst case), with the store's expiry scan.
    [`SessionEnd, ${(statSync(small).size / 1024 / 1024).toFixed(1)} MB transcript`, endEvent(small), 9, undefined],
    [`SessionEnd, ${(statSync(large).size / 1024 / 1024).toFixed(1)} MB transcript`, endEvent(large), 9, undefined],
  ];
  for (const [name, input, rounds, second] of cases) {
    // Interleaved: node -e 0, the hook, then the second baseline, so load elsewhere falls on all alike.
    const baseline = [];
    const measured = [];
    const other = [];
    for (let i = 0; i < rounds; i++) {
      const warmup = i === 0 ? 2 : 0;
      baseline.push(await medianMs(() => run(["-e", "0"], ""), { runs: 1, warmup }));
      measured.push(await medianMs(() => run([bin, "hook"], input()), { runs: 1, warmup }));
      if (second) other.push(await medianMs(() => run(second[1], ""), { runs: 1, warmup }));
    }
    report(`handoff hook (${name}) / node -e 0`, median(measured), median(baseline));
    if (second) report(`handoff hook (${name}) / ${second[0]}`, median(measured), median(other));
    if (name.startsWith("SessionEnd")) {
      const worst = Math.max(...measured);
      console.log(
        `  SessionEnd returned in ${median(measured).toFixed(0)} ms (median), ${worst.toFixed(0)} ms (slowest of ${rounds}); budget 1500 ms (Claude Code): ${worst <= 1500 ? "within" : "OVER"}`,
      );
    }
  }
  console.log(`PreCompact goal: well under 1000 ms on an idle machine; scale the ratio to node -e 0 by this machine's idle node -e 0 (about 40 ms) when the run was under load.`);
} finally {
  rmSync(base, { recursive: true, force: true });
}

/**
 * Writes a Claude Code transcript of about `bytes` to `path`, batch by batch (a 200 MB one never
 * sits in memory whole): a first request, then requests, tool calls with 8 KiB results, edits and
 * progress lines, as a long session's file looks.
 */
function writeTranscript(path, cwd, bytes) {
  const fd = openSync(path, "w");
  try {
    const common = { parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId: "bench", version: "2.1.0", gitBranch: "main", timestamp: "2026-11-30T10:00:00.000Z" };
    let total = 0;
    const write = (line) => {
      const text = `${JSON.stringify(line)}\n`;
      writeSync(fd, text);
      total += Buffer.byteLength(text);
    };
    write({ ...common, type: "user", uuid: "u-first", message: { role: "user", content: "Port the parser to streams and keep the tests green" } });
    const output = "x".repeat(8 * 1024);
    for (let i = 0; total < bytes; i++) {
      const batch = [
        { ...common, type: "user", uuid: `u${i}`, message: { role: "user", content: `Request ${i}: keep going on the parser` } },
        {
          ...common,
          type: "assistant",
          uuid: `a${i}`,
          message: {
            role: "assistant",
            content: [
              { type: "text", text: `Working on step ${i}.` },
              { type: "tool_use", id: `b${i}`, name: "Bash", input: { command: `npm test -- ${i}` } },
              { type: "tool_use", id: `e${i}`, name: "Edit", input: { file_path: `${cwd}/src/f${i % 50}.ts`, old_string: "a", new_string: "b" } },
            ],
          },
        },
        {
          ...common,
          type: "user",
          uuid: `r${i}`,
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: `b${i}`, content: `${i % 3 === 0 ? "Exit code 1\n" : ""}${output}`, is_error: i % 3 === 0 }] },
        },
        { type: "progress", uuid: `p${i}`, sessionId: "bench", data: { type: "hook_progress" } },
      ];
      const text = `${batch.map((line) => JSON.stringify(line)).join("\n")}\n`;
      writeSync(fd, text);
      total += Buffer.byteLength(text);
    }
  } finally {
    closeSync(fd);
  }
}
