import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUN_MARKER } from "./global-setup.js";
import { validateDocumentText } from "../../shared/document/validate-document.js";
import { REFERENCE_UNAVAILABLE, expectReferenceAccepts } from "./kernel-reference.js";
import { frontmatterOf, strictYaml12Problems } from "./strict-yaml.js";
import { COMMANDS } from "../../client/cli/registry.js";

/**
 * Runs the BUILT CLI (`node bin/handoff.cjs`) the way a user does, for golden tests: a clean
 * environment (PATH, the run's TMPDIR and marker, plus what the test passes, colour off), stdin
 * closed after `input`. No kill timer: a busy machine must not fail a slow run. A hang fails the
 * test by the test's own time limit, and the global teardown stops the CLI left behind.
 * Call `ensureBuilt()` once in a beforeAll first.
 */

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(repoRoot, "bin", "handoff.cjs");

export interface CliRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

export interface CliOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Written to stdin, which is then closed (default: empty stdin). */
  input?: string;
}

/** The run's TMPDIR (a test may set its own), for processes started with a clean environment. */
export function runTmpdir(): Record<string, string> {
  return process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR };
}

/** The global teardown's marker (test/helpers/global-setup.ts): always passed on, never overridden. */
export function runMarker(): Record<string, string> {
  const value = process.env[RUN_MARKER];
  return value === undefined ? {} : { [RUN_MARKER]: value };
}

/**
 * The whole environment of a CLI a test starts: PATH, the run's TMPDIR and marker, colour off, and
 * what the test adds. Nothing of the developer's own (HANDOFF_SERVER, tokens, HOME, XDG_*) leaks in.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...runTmpdir(), FORCE_COLOR: "0", NO_COLOR: "1", ...extra, ...runMarker() };
}

export async function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  const run = await runProgram(process.execPath, [bin, ...args], options);
  if (run.code === 0) checkHandoffsWritten(args, options.cwd, run.stdout);
  checkExitDeclared(args, run.code);
  return run;
}

/**
 * Every exit a CLI run in the suite gives must be one its command declares in its spec.ts (the
 * exit lines `--help` prints); exit 2, a usage error the parser raises, any command can give.
 */
function checkExitDeclared(args: string[], code: number | null): void {
  if (code === null || code === 2) return;
  const [first] = args;
  if (args.some((arg) => ["--help", "-h", "--version", "-v"].includes(arg)) || first === "help") return;
  const name = first === undefined || first.startsWith("-") ? "create" : first;
  const spec = COMMANDS.find((c) => c.spec.name === name)?.spec;
  if (spec === undefined) return;
  if (!(code in spec.exits)) {
    throw new Error(`handoff ${args.join(" ")} exited ${code}, which client/commands/${name}/spec.ts does not declare (exits: ${Object.keys(spec.exits).join(", ")})`);
  }
}

/** Runs any program (an installed `handoff`, npm) with runCli's clean environment and no kill timer. */
export function runProgram(file: string, args: string[], options: CliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    // A program may exit without reading its stdin (`node --version`): the write then fails with EPIPE, which is no test's concern.
    child.stdin.on("error", () => {});
    child.on("close", (code) => {
      resolve({ stdout, stderr, code });
    });
    child.stdin.end(options.input ?? "");
  });
}

/**
 * Every file `create` writes anywhere in the suite is checked by the strictest reader of its
 * format: a kernel manifest by kernel's reference validator (where this machine has none, by
 * Handoff's own, whose agreement with the reference the committed conformance facts pin), a
 * ce-handoff's frontmatter by a strict YAML 1.2 check. The file is the one named in --json output, else every manifest in
 * `_meta/handoffs` (kernel) or the path `create` prints (ce).
 */
function checkHandoffsWritten(args: string[], cwd: string, stdout: string): void {
  if (args[0] !== "create") return;
  const at = args.indexOf("--format");
  const kernel = at !== -1 && args[at + 1] === "kernel";
  let files: string[] = [];
  try {
    const path = (JSON.parse(stdout) as { path?: unknown }).path;
    if (typeof path === "string") files = [path];
  } catch {
    if (kernel) {
      const dir = join(cwd, "_meta", "handoffs");
      if (existsSync(dir))
        files = readdirSync(dir)
          .filter((name) => name.endsWith(".json"))
          .map((name) => join(dir, name));
    } else {
      files = stdout
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line.startsWith("/") && line.endsWith(".md") && existsSync(line));
    }
  }
  if (files.length === 0) return;
  if (kernel && REFERENCE_UNAVAILABLE === undefined) {
    expectReferenceAccepts(files, cwd);
    return;
  }
  if (kernel) {
    const rejected = files.map((file) => validateDocumentText(file, readFileSync(file, "utf8"))).filter((report) => !report.valid);
    if (rejected.length > 0) throw new Error(`Handoff's own validator rejects what create wrote:\n${JSON.stringify(rejected, null, 2)}`);
    return;
  }
  for (const file of files) {
    const frontmatter = frontmatterOf(readFileSync(file, "utf8"));
    if (frontmatter === undefined) continue;
    const problems = strictYaml12Problems(frontmatter);
    if (problems.length > 0) throw new Error(`a strict YAML 1.2 parser rejects the frontmatter create wrote to ${file}:\n${problems.join("\n")}`);
  }
}

/**
 * Builds dist/ once per test run. Test files run in parallel workers, so the first one takes a
 * lock (an atomic mkdir) and builds; the others wait for its stamp instead of rewriting files a
 * running CLI may be reading. The stamp is keyed to the vitest main process, so each run rebuilds.
 */
export async function ensureBuilt(): Promise<void> {
  const dist = join(repoRoot, "dist");
  mkdirSync(dist, { recursive: true });
  const stamp = join(dist, `.test-build-${process.ppid}`);
  const lock = join(dist, ".test-build-lock");
  const deadline = Date.now() + 600_000;
  while (!existsSync(stamp)) {
    if (tryLock(lock)) {
      try {
        const { buildCli } = (await import(join(repoRoot, "scripts", "build-cli.js"))) as { buildCli(): Promise<void> };
        await buildCli();
        // Stamps of earlier runs are meaningless now.
        for (const name of readdirSync(dist)) if (name.startsWith(".test-build-") && name !== ".test-build-lock") rmSync(join(dist, name));
        writeFileSync(stamp, "");
      } finally {
        rmdirSync(lock);
      }
      return;
    }
    if (Date.now() > deadline) throw new Error("timed out waiting for another test file to build the CLI");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    // A lock left by a crashed run is stale after a minute.
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 60_000) rmdirSync(lock);
    return false;
  }
}
