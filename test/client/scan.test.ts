import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanText } from "../../shared/redact/index.js";
import { positiveSamples } from "../fixtures/redact/samples.js";
import { survivingWindows } from "../shared/redact/consistency.js";
import { cleanEnv, ensureBuilt } from "../helpers/cli.js";
import { unprivilegedCli, unprivilegedDir } from "../helpers/unprivileged.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const launcher = join(root, "bin", "handoff.cjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with `args`, feeding `stdin`; a hang fails the test by its time limit. */
function handoff(args: string[], options: { cwd: string; stdin?: string | Buffer; unprivileged?: boolean }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const [file, argv] = options.unprivileged ? unprivilegedCli(options.cwd, args) : [process.execPath, [launcher, ...args]];
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: cleanEnv({ HOME: options.cwd }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.on("error", () => {}); // the CLI may stop reading an oversized stdin early
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
    child.stdin.end(options.stdin ?? "");
  });
}

let dir: string;
const samples = positiveSamples(21);
const secretBody = ["# Session", "", ...samples.map((sample) => `- ${sample.text}`), ""].join("\n");

beforeAll(async () => {
  // The shared, locked build: rebuilding dist/ here would pull chunks from under CLIs other test files run.
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "handoff-scan-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("handoff scan", () => {
  it("exits 0 and says so on a clean file", async () => {
    const file = join(dir, "clean.md");
    writeFileSync(file, readFileSync(join(root, "test/fixtures/redact/ce-handoff.md")));
    const run = await handoff(["scan", file], { cwd: dir });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("no secrets found");
  });

  it("exits 1 and lists rules, counts and lines, never a secret, and writes nothing", async () => {
    const file = join(dir, "secrets.md");
    writeFileSync(file, secretBody);
    const before = statSync(file);
    const listing = readdirSync(dir).sort();
    const run = await handoff(["scan", file], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`${samples.length} secrets found by \\d+ rules`));
    expect(run.stdout).toMatch(/^ {2}github-token +2 {2}lines 3, 4$/m);
    const keys = samples.filter((sample) => sample.rule === "private-key").length;
    expect(run.stdout).toMatch(new RegExp(`^ {2}private-key +${keys} {2}lines `, "m"));
    for (const sample of samples) expect(survivingWindows(sample.secret, run.stdout + run.stderr)).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(secretBody);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(readdirSync(dir).sort()).toEqual(listing);
  });

  it("--json prints the report without the text", async () => {
    const file = join(dir, "secrets-json.md");
    writeFileSync(file, secretBody);
    const run = await handoff(["scan", file, "--json"], { cwd: dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toEqual(JSON.parse(JSON.stringify(scanText(secretBody))));
    expect(Object.keys(report).sort()).toEqual(["complete", "counts", "findings"]);
    for (const sample of samples) expect(survivingWindows(sample.secret, run.stdout)).toEqual([]);
  });

  it("reads stdin with -", async () => {
    const run = await handoff(["scan", "-", "--json"], { cwd: dir, stdin: `token ${samples[0]!.text}\n` });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ counts: { "github-token": 1 }, complete: true });
    const clean = await handoff(["scan", "-"], { cwd: dir, stdin: "nothing secret here\n" });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("stdin: no secrets found");
  });

  const unreadable: { name: string; setup: () => string[]; stdin?: Buffer; message: RegExp }[] = [
    { name: "a missing file", setup: () => ["scan", join(dir, "missing.md")], message: /cannot read .*missing\.md: no such file/ },
    { name: "a directory", setup: () => ["scan", dir], message: /it is a folder, not a file/ },
    {
      name: "a FIFO",
      setup: () => {
        const fifo = join(dir, "fifo");
        spawnSync("mkfifo", [fifo]);
        return ["scan", fifo];
      },
      message: /not a regular file/,
    },
    {
      name: "a file over 1 MiB",
      setup: () => {
        const big = join(dir, "big.md");
        writeFileSync(big, "a".repeat(1024 * 1024 + 1));
        return ["scan", big];
      },
      message: /larger than 1048576 bytes \(1 MiB\)/,
    },
    { name: "stdin over 1 MiB", setup: () => ["scan", "-"], stdin: Buffer.alloc(1024 * 1024 + 10, 97), message: /stdin is larger than 1048576 bytes/ },
    {
      name: "bytes that are not UTF-8",
      setup: () => {
        const binary = join(dir, "binary.md");
        writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
        return ["scan", binary];
      },
      message: /is not valid UTF-8 text/,
    },
  ];
  it.each(unreadable)("exits 3 with a clear message on $name", async ({ setup, stdin, message }) => {
    const run = await handoff(setup(), { cwd: dir, ...(stdin ? { stdin } : {}) });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });

  it("exits 3 on a file without read permission (as root too: then the CLI runs as nobody)", async () => {
    const folder = unprivilegedDir("handoff-scan-locked-");
    const locked = join(folder, "locked.md");
    writeFileSync(locked, "text");
    chmodSync(locked, 0o000);
    const run = await handoff(["scan", locked], { cwd: folder, unprivileged: true });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/permission denied/);
  });

  it.each([[[]], [["a.md", "b.md"]], [["--bogus", "a.md"]]])("exits 2 on wrong arguments %j", async (args) => {
    mkdirSync(join(dir, "args"), { recursive: true });
    const run = await handoff(["scan", ...args], { cwd: join(dir, "args") });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/handoff scan/);
  });

  it("has its own help and is listed in the main help", async () => {
    const own = await handoff(["scan", "--help"], { cwd: dir });
    expect(own.code).toBe(0);
    expect(own.stdout).toContain("Usage: handoff scan FILE");
    const main = await handoff(["--help"], { cwd: dir });
    expect(main.stdout).toMatch(/^ {2}scan FILE\|- /m);
  });
});
