import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftFromTranscript } from "../../client/ops/create/read-transcript.js";
import { ensureBuilt, repoRoot, runCli, runMarker, runTmpdir } from "../helpers/cli.js";
import { draftBody } from "../../shared/transcript/render.js";
import { claude, gemini, summarySample } from "../helpers/transcripts.js";
import { userBoxes } from "../helpers/user-box.js";
import { makeRepo, tempDir } from "./git-repo.js";

// `handoff create --from-transcript PATH` through the built CLI, on transcripts written the way
// Claude Code writes them, in a real git repository.

const base = tempDir("handoff-transcript-");
beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const user = userBoxes(base);
function box() {
  const b = user();
  return { ...b, repo: makeRepo(join(b.dir, "repo"), { "README.md": "# App\n", "src/login.ts": "export {};\n" }) };
}

const githubToken = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5";
const awsKeyId = "AKIA" + "Z3XQ7B2M5N8P4R6T";

describe("create --from-transcript", () => {
  it("writes a sufficient handoff from a session's transcript: requests, plan, repository-relative edits, failures", async () => {
    const b = box();
    const cc = claude({ sessionId: "s-cli", cwd: b.repo, gitBranch: "main" });
    const transcript = join(b.dir, "session.jsonl");
    writeFileSync(
      transcript,
      [
        cc.userText("Make login remember the user"),
        cc.assistant([cc.toolUse("t1", "TodoWrite", { todos: [{ content: "Add remember-me cookie", status: "in_progress", activeForm: "Adding" }] })]),
        cc.assistant([cc.toolUse("e1", "Edit", { file_path: join(b.repo, "src/login.ts"), old_string: "a", new_string: "b" })]),
        cc.assistant([cc.toolUse("b1", "Bash", { command: "npm test" })]),
        cc.userBlocks([cc.toolResult("b1", "Exit code 1\nFAIL login.test.ts", true)]),
        cc.assistant([cc.text("The cookie is set; the expiry test fails.")]),
      ].join("\n"),
    );
    const run = await runCli(["create", "--json", "--from-transcript", transcript], { cwd: b.repo, env: b.env });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { path: string; metadata: Record<string, unknown>; warnings: { code: string }[] };
    expect(result.metadata).toMatchObject({ title: "Make login remember the user", branch: "main" });
    expect(result.warnings.map((w) => w.code)).not.toContain("insufficient");
    const text = readFileSync(result.path, "utf8");
    expect(text).toContain("- `src/login.ts`");
    expect(text).toContain("- `npm test` exited 1: FAIL login.test.ts");
    expect(text).toContain("- Add remember-me cookie (in progress)");
  });

  it("no secret survives: not from the user's text, a failed command, or a tool's output", async () => {
    const b = box();
    const cc = claude({ sessionId: "s-secret", cwd: b.repo });
    const transcript = join(b.dir, "secret.jsonl");
    writeFileSync(
      transcript,
      [
        cc.userText(`Deploy with token ${githubToken}, the state is in progress`),
        cc.assistant([cc.toolUse("b1", "Bash", { command: `AWS_ACCESS_KEY_ID=${awsKeyId} ./deploy.sh` })]),
        cc.userBlocks([cc.toolResult("b1", `Exit code 2\nDenied for ${awsKeyId}`, true)]),
        cc.assistant([cc.toolUse("r1", "Read", { file_path: join(b.repo, ".env") })]),
        cc.userBlocks([cc.toolResult("r1", `GITHUB_TOKEN=${githubToken}\nDB_PASSWORD=hunter2-very-secret`)]),
        cc.assistant([cc.text(`Deploy failed: the key ${awsKeyId} was denied.`)]),
      ].join("\n"),
    );
    const run = await runCli(["create", "--json", "--from-transcript", transcript], { cwd: b.repo, env: b.env });
    expect(run.code, run.stderr).toBe(0);
    const { path } = JSON.parse(run.stdout) as { path: string };
    const text = readFileSync(path, "utf8");
    for (const secret of [githubToken, awsKeyId, "hunter2-very-secret"]) expect(text).not.toContain(secret);
    // Redacted while drafting, before anything was cut; the body says how many.
    expect(text).toContain("[REDACTED:");
    expect(text).toMatch(/^- [1-9]\d* secrets? redacted while drafting$/m);
  });

  it("a transcript with nothing to resume from is refused with what is missing; nothing is written", async () => {
    const b = box();
    const cc = claude({ sessionId: "s-empty", cwd: b.repo });
    const transcript = join(b.dir, "empty.jsonl");
    writeFileSync(transcript, [cc.progress(), cc.snapshot(), "{torn"].join("\n"));
    const run = await runCli(["create", "--from-transcript", transcript], { cwd: b.repo, env: b.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the transcript has nothing to resume from yet");
    expect(existsSync(join(b.dir, "store"))).toBe(false);
  });

  it("a missing transcript is unreadable (exit 3); --body-file with it is a usage error (exit 2)", async () => {
    const b = box();
    const missing = await runCli(["create", "--from-transcript", join(b.dir, "nope.jsonl")], { cwd: b.repo, env: b.env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("cannot read the transcript");
    const both = await runCli(["create", "--from-transcript", "x.jsonl", "--body-file", "y.md"], { cwd: b.repo, env: b.env });
    expect(both.code).toBe(2);
  });
});

/** Makes a FIFO at `path` with the system's mkfifo, or says why it cannot. */
function makeFifo(path: string): string | undefined {
  const made = spawnSync("mkfifo", [path], { encoding: "utf8" });
  return made.status === 0 ? undefined : `mkfifo is not available here (${made.error?.message ?? made.stderr.trim()})`;
}

describe("what is not a transcript file is refused at once", () => {
  it("a FIFO: create --from-transcript returns promptly (exit 3) saying it is not a regular file, and writes nothing", async (context) => {
    const b = box();
    const fifo = join(b.dir, "session.jsonl");
    const why = makeFifo(fifo);
    if (why) return context.skip(why);
    const run = await runCli(["create", "--from-transcript", fifo], { cwd: b.repo, env: b.env });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("is not a regular file but a FIFO (named pipe)");
    expect(existsSync(join(b.dir, "store"))).toBe(false);
  }, 30_000);

  it("a folder and a device", () => {
    expect(() => draftFromTranscript(base)).toThrow(/is not a regular file but a folder/);
    expect(() => draftFromTranscript("/dev/null")).toThrow(/is not a regular file but a device/);
  });
});

describe("Gemini CLI sessions", () => {
  const g = gemini({ sessionId: "981c87cb-0000-4000-8000-000000000001" });
  const messages = [
    g.user("Make me a CLI that converts CSV to JSON"),
    g.gemini("I'll write the converter.", [g.write("/home/dev/app/convert.py")]),
    g.gemini("Running it.", [
      g.shell("python3 convert.py in.csv", "Command: python3 convert.py in.csv\nDirectory: (root)\nOutput: Traceback: no such file in.csv\nError: (none)\nExit Code: 1\nSignal: 0"),
    ]),
    g.user("Explain @convert.py\n--- Content from referenced files ---\nContent from @convert.py:\nimport csv"),
    g.gemini("It reads rows with csv.DictReader; the sample file is missing."),
  ];

  it("the pretty-printed session-*.json: the task, the edits, the failed shell command, the last status", () => {
    const b = box();
    const path = join(b.dir, "session-2026-11-30T10-00-981c87cb.json");
    writeFileSync(path, g.document(messages));
    const draft = draftFromTranscript(path);
    expect(draft).toMatchObject({ format: "gemini", session_id: "981c87cb-0000-4000-8000-000000000001" });
    expect(draft.task?.text).toBe("Make me a CLI that converts CSV to JSON");
    expect(draft.latest[0]?.text).toBe("Explain @convert.py");
    expect(draft.edited).toEqual(["/home/dev/app/convert.py"]);
    expect(draft.failed).toEqual([{ command: "python3 convert.py in.csv", exit: 1, first_line: "Traceback: no such file in.csv" }]);
    expect(draft.status?.text).toBe("It reads rows with csv.DictReader; the sample file is missing.");
    expect(draftBody(draft, { roots: ["/home/dev/app"] })).toContain("Gemini CLI session file");
  });

  it("the session-*.jsonl: a record written again replaces it, a rewind drops it and what followed, $set lines are read", () => {
    const b = box();
    const path = join(b.dir, "session-2026-11-30T10-00-981c87cb.jsonl");
    const [first, reply, , ...rest] = messages as { id: string }[];
    const rewound = g.user("Rewound: use pandas instead");
    writeFileSync(path, g.jsonl([first, { ...reply, content: "draft reply" }, reply, { $set: { summary: "CSV to JSON" } }, rewound, { $rewindTo: rewound.id }, ...rest]));
    const draft = draftFromTranscript(path);
    expect(draft.format).toBe("gemini");
    expect(draft.task?.text).toBe("Make me a CLI that converts CSV to JSON");
    expect(draft.latest.map((r) => r.text)).not.toContain("Rewound: use pandas instead");
    expect(draft.status?.text).toBe("It reads rows with csv.DictReader; the sample file is missing.");
  });
});

describe("redaction comes before any cut", () => {
  const token = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5";

  it("a secret where a long request, a command or an error line is cut never leaves a piece behind", () => {
    const b = box();
    const cc = claude({ sessionId: "s-cut", cwd: b.repo });
    const path = join(b.dir, "cut.jsonl");
    writeFileSync(
      path,
      [
        // Each secret straddles a cut: the request's 600 characters, the command's 200, the error line's 200, the held text's 16 KiB.
        cc.userText(`${"a".repeat(590)} ${token} and more`),
        cc.userText(`${"b".repeat(16_370)} ${token} ${"c".repeat(5000)}`),
        cc.assistant([cc.toolUse("b1", "Bash", { command: `${"d".repeat(190)} ${token}` })]),
        cc.userBlocks([cc.toolResult("b1", `Exit code 1\n${"e".repeat(192)} ${token}`, true)]),
        cc.assistant([cc.text(`${"f".repeat(1195)} ${token}`)]),
      ].join("\n"),
    );
    const draft = draftFromTranscript(path);
    const body = draftBody(draft, { roots: [b.repo] });
    // Not even the prefix and a few characters: what a cut-then-redact would have left.
    expect(body).not.toMatch(/ghp_A/);
    expect(body).toContain("[REDACTE");
    // The task (and the same words among the latest: counted once), the command, the error line, the status.
    expect(draft.redacted).toBe(4);
  });
});

describe("a windowed read (SessionEnd's budget)", () => {
  it("reads the head and the tail of a large transcript: the task from its start, where it stands from its end, and says so", () => {
    const b = box();
    const cc = claude({ sessionId: "s-window", cwd: b.repo });
    const path = join(b.dir, "window.jsonl");
    const filler = cc.userBlocks([cc.toolResult("none", "z".repeat(10_000))]);
    writeFileSync(
      path,
      [
        cc.userText("Port the exporter to streams"),
        ...Array.from({ length: 100 }, () => filler),
        cc.userText("a request in the middle nobody reads"),
        ...Array.from({ length: 100 }, () => filler),
        cc.userText("now add the CSV header"),
        cc.assistant([cc.text("The header is written; tests pass.")]),
      ].join("\n"),
    );
    const size = statSync(path).size;
    const draft = draftFromTranscript(path, { window: { headBytes: 64 * 1024, tailBytes: 64 * 1024 } });
    expect(draft.task?.text).toBe("Port the exporter to streams");
    expect(draft.latest.map((r) => r.text)).toEqual(["now add the CSV header", "Port the exporter to streams"]);
    expect(draft.status?.text).toBe("The header is written; tests pass.");
    expect(draft.window).toEqual({ read_bytes: 128 * 1024, total_bytes: size });
    expect(draftBody(draft, { roots: [b.repo] })).toMatch(/Read 0\.1 MB of the transcript's 2\.\d MB, its start and its end/);
    // A file within the window is read whole.
    expect(draftFromTranscript(path, { window: { headBytes: size, tailBytes: 0 } }).window).toBeUndefined();
  });

  it("finds the latest compaction summary in the skipped part when the end holds none", () => {
    const b = box();
    const cc = claude({ sessionId: "s-window-summary", cwd: b.repo });
    const path = join(b.dir, "window-summary.jsonl");
    const filler = cc.userBlocks([cc.toolResult("none", "z".repeat(10_000))]);
    writeFileSync(
      path,
      [
        cc.userText("Port the exporter to streams"),
        ...Array.from({ length: 50 }, () => filler),
        cc.compactBoundary(),
        cc.compactSummary(summarySample("port the exporter to streams")),
        ...Array.from({ length: 150 }, () => filler),
        cc.assistant([cc.text("The header is written; tests pass.")]),
      ].join("\n"),
    );
    const draft = draftFromTranscript(path, { window: { headBytes: 64 * 1024, tailBytes: 64 * 1024 } });
    expect(draft.summary?.sections.find((s) => s.role === "unfinished")?.text).toBe("- Document the streaming option");
    expect(draft.compactions).toBe(1);
    expect(draft.status?.text).toBe("The header is written; tests pass.");
  });
});

describe("the streaming reader", () => {
  it("skips a line longer than its limit and still reads the lines around it, also when the file ends without a newline", () => {
    const b = box();
    const cc = claude({ sessionId: "s-long", cwd: b.repo });
    const path = join(b.dir, "long.jsonl");
    writeFileSync(path, [cc.userText("first"), cc.userBlocks([cc.toolResult("x", "y".repeat(3_000_000))]), cc.userText("last")].join("\n"));
    const draft = draftFromTranscript(path, { maxLineBytes: 1_000_000 });
    expect(draft.latest.map((r) => r.text)).toEqual(["last", "first"]);
    expect(draft.counts).toMatchObject({ lines: 3, oversized: 1 });
  });

  it("skips a bulky tool result no pending command waits for, and still reads a bulky failure a command waits for", () => {
    const b = box();
    const cc = claude({ sessionId: "s-bulk", cwd: b.repo });
    const path = join(b.dir, "bulk.jsonl");
    const bulk = "z".repeat(20_000);
    writeFileSync(
      path,
      [
        cc.userText("read then test"),
        cc.assistant([cc.toolUse("r1", "Read", { file_path: join(b.repo, "README.md") })]),
        cc.userBlocks([cc.toolResult("r1", bulk)]),
        cc.assistant([cc.toolUse("b1", "Bash", { command: "npm test" })]),
        cc.userBlocks([cc.toolResult("b1", `Exit code 1\nFAIL big\n${bulk}`, true)]),
      ].join("\n"),
    );
    const draft = draftFromTranscript(path);
    expect(draft.failed).toEqual([{ command: "npm test", exit: 1, first_line: "FAIL big" }]);
    expect(draft.counts).toMatchObject({ lines: 5, used: 4, skipped: 1 });
  });

  it("a multi-byte character split across read chunks decodes whole", () => {
    const b = box();
    const cc = claude({ sessionId: "s-utf8", cwd: b.repo });
    const path = join(b.dir, "utf8.jsonl");
    // Long enough that a chunk boundary falls inside the request's text.
    writeFileSync(path, `${cc.userText(`${"é".repeat(700_000)} ünïcode`)}\n`);
    const draft = draftFromTranscript(path);
    expect(draft.task!.text.startsWith("éé")).toBe(true);
    expect(draft.task!.text).not.toContain("\uFFFD");
  });

  it("drafts a 300 MB transcript in a process with a 48 MB heap", async () => {
    const b = box();
    const path = join(b.dir, "big.jsonl");
    await writeBigTranscript(path, b.repo, 300 * 1024 * 1024);
    expect(statSync(path).size).toBeGreaterThan(300 * 1024 * 1024);
    const run = await runNode(["--max-old-space-size=48", join(repoRoot, "bin", "handoff.cjs"), "create", "--json", "--from-transcript", path], b.repo, b.env);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const text = readFileSync((JSON.parse(run.stdout) as { path: string }).path, "utf8");
    expect(text).toContain("# Port the transcript reader to streams");
    expect(text).toContain("> Finish the streaming port");
    expect(text).toMatch(/Read \d+ transcript lines: \d+ used/);
  }, 600_000);
});

/**
 * Streams a transcript of about `bytes` to disk from a generator: a session of requests, edits and
 * failing commands among tool results of 64 KiB each, as a long session's file looks.
 */
async function writeBigTranscript(path: string, repo: string, bytes: number): Promise<void> {
  const cc = claude({ sessionId: "s-big", cwd: repo });
  const output = "o".repeat(64 * 1024);
  const out = createWriteStream(path);
  out.write(`${cc.userText("Port the transcript reader to streams")}\n`);
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const lines = [
      cc.assistant([cc.toolUse(`b${i}`, "Bash", { command: `npm test -- case ${i}` }), cc.toolUse(`e${i}`, "Edit", { file_path: join(repo, `src/f${i % 300}.ts`) })]),
      cc.userBlocks([cc.toolResult(`b${i}`, `Exit code 1\nfailure ${i}\n${output}`, true)]),
      cc.progress(),
    ];
    if (i % 1000 === 0) lines.push(cc.userText(`Request ${i}`));
    const chunk = `${lines.join("\n")}\n`;
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  // The first request is the task (the title); the last is the latest.
  out.write(`${cc.userText("Finish the streaming port")}\n${cc.assistant([cc.text("Status: still failing.")])}\n`);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function runNode(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...runTmpdir(), ...env, ...runMarker() }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
