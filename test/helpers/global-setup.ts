import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/**
 * One place that cleans up after the whole run, whatever the tests did. Setup gives the run its
 * own temp folder (TMPDIR, inherited by every test worker and every process they spawn) and a
 * marker in the environment; teardown stops every process that still carries the marker, by its
 * process group, and removes the folder. So a test that fails or times out half-way, or a worker
 * that dies, leaves no wrangler, workerd, Chromium or CLI child and no temp folder behind.
 */

/** The environment variable every process started by this run inherits. */
export const RUN_MARKER = "HANDOFF_TEST_RUN";

let runDir: string | undefined;

export function setup(): () => void {
  runDir = realpathSync(mkdtempSync(join(tmpdir(), "handoff-test-run-")));
  process.env.TMPDIR = runDir;
  process.env[RUN_MARKER] = runDir;
  if (process.env.PATH !== undefined) process.env.PATH = withDirectPython(process.env.PATH);
  return teardown;
}

/**
 * kernel's reference runtime is Python, started hundreds of times a run (the guard, validate and
 * activate comparisons). Where `python3` on PATH is a version manager's shim (pyenv's is a bash
 * script that runs `pyenv exec`: about 170 ms of CPU a start on the 2-core machine), the folder of
 * the interpreter it resolves to goes first on PATH, for every test and what it starts: the same
 * python3, started directly. Where `python3` is the interpreter itself, PATH is left as it is.
 */
function withDirectPython(path: string): string {
  const onPath = path
    .split(delimiter)
    .map((dir) => join(dir, "python3"))
    .find((file) => existsSync(file));
  if (onPath === undefined) return path;
  const run = spawnSync(onPath, ["-c", "import sys; print(sys.executable)"], { encoding: "utf8", timeout: 30_000 });
  const interpreter = run.status === 0 ? run.stdout.trim() : "";
  if (!interpreter.startsWith("/") || !existsSync(interpreter) || realpathSync(interpreter) === realpathSync(onPath)) return path;
  return `${dirname(interpreter)}${delimiter}${path}`;
}

function teardown(): void {
  if (!runDir) return;
  stopMarkedProcesses(`${RUN_MARKER}=${runDir}`);
  rmSync(runDir, { recursive: true, force: true });
  runDir = undefined;
}

/**
 * SIGKILLs every process whose environment holds `marker`: its whole process group when it leads
 * or belongs to a group of its own (wrangler dev and Chromium are started detached), the process
 * alone when it shares vitest's group. vitest itself and its own pool workers (node processes it
 * forked) are spared.
 */
function stopMarkedProcesses(marker: string): number {
  const self = process.pid;
  const ownGroup = readStat(self)?.pgid;
  const node = realpathSync(process.execPath);
  const groups = new Set<number>();
  const singles = new Set<number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === self) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, "latin1");
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.split("\0").includes(marker)) continue;
    const stat = readStat(pid);
    if (!stat) continue;
    if (stat.pgid !== ownGroup) groups.add(stat.pgid);
    else if (stat.ppid !== self || exe(pid) !== node) singles.add(pid);
  }
  for (const pgid of groups) signal(-pgid);
  for (const pid of singles) signal(pid);
  return groups.size + singles.size;
}

function exe(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

function signal(target: number): void {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // already gone
  }
}

/** ppid and pgid from /proc/PID/stat (the command name in parentheses may hold spaces). */
function readStat(pid: number): { ppid: number; pgid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}
