import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
  return teardown;
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
