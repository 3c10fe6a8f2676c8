import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Asks kernel's reference validator (../shared/spec/kernel/reference, unchanged, used as an
 * oracle) for its verdict on many files in one Python process: the driver imports the reference
 * module once instead of paying Python's start-up per file.
 */

export const REFERENCE_SCRIPT = fileURLToPath(new URL("../../../shared/spec/kernel/reference/orchestration/manifest/kernel-manifest", import.meta.url));
const DRIVER = fileURLToPath(new URL("./reference-validate.py", import.meta.url));

export interface ReferenceVerdict {
  file: string;
  /** 0 valid, 1 invalid, 2 unparseable, as `kernel-manifest validate FILE` exits. */
  exit: number;
  output: string;
}

/** The reference's verdict on each absolute path, resolving manifest paths against `cwd`'s git repository. */
export function referenceValidate(files: readonly string[], cwd: string): ReferenceVerdict[] {
  const run = spawnSync("python3", [DRIVER, REFERENCE_SCRIPT], { cwd, input: files.join("\n") + "\n", encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`the reference driver failed (${run.status ?? run.signal}): ${run.stderr}`);
  const verdicts = run.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as ReferenceVerdict);
  if (verdicts.length !== files.length) throw new Error(`the reference driver answered ${verdicts.length} of ${files.length} files: ${run.stderr}`);
  return verdicts;
}

/** Fails with the reference's own words unless it accepts every file. */
export function expectReferenceAccepts(files: readonly string[], cwd: string): void {
  const rejected = referenceValidate(files, cwd).filter((verdict) => verdict.exit !== 0);
  if (rejected.length > 0) throw new Error(`kernel's reference rejects what Handoff wrote:\n${rejected.map((r) => `${r.file}: exit ${r.exit}\n${r.output}`).join("\n")}`);
}

export interface ReferenceDivergence {
  exit: number;
  events: { event: string; status: string }[];
  phases: { name: string; status: string }[];
  hard_divergence: boolean;
}

/** The reference's `divergence FILE --json` in `cwd`: its events, phases after its rules, and exit code. */
export function referenceDivergence(file: string, cwd: string, env: NodeJS.ProcessEnv = process.env): ReferenceDivergence {
  const run = spawnSync("python3", [REFERENCE_SCRIPT, "divergence", file, "--json"], { cwd, env, encoding: "utf8" });
  const start = run.stdout.indexOf("{");
  if (start === -1) throw new Error(`the reference's divergence printed no JSON (${run.status}): ${run.stderr}`);
  const report = JSON.parse(run.stdout.slice(start, run.stdout.lastIndexOf("}") + 1)) as Omit<ReferenceDivergence, "exit">;
  return { exit: run.status ?? -1, events: report.events.map(({ event, status }) => ({ event, status })), phases: report.phases.map(({ name, status }) => ({ name, status })), hard_divergence: report.hard_divergence };
}

/** Our drift items in the reference's words: kernel events only, status match / warn / diverged. */
export function asReferenceEvents(drift: { event: string; status: string; severity: string }[]): { event: string; status: string }[] {
  const kernelEvents = /^(branch|commit|dirty|artifact)_/;
  return drift
    .filter((item) => kernelEvents.test(item.event))
    .map((item) => ({ event: item.event, status: item.status === "ok" ? "match" : item.severity === "hard" ? "diverged" : "warn" }));
}

/** The reference's `compile FILE` in `cwd`: its receipt (printed on stdout) and exit code. */
export function referenceCompile(file: string, cwd: string): { exit: number; receipt: Record<string, unknown> } {
  const run = spawnSync("python3", [REFERENCE_SCRIPT, "compile", file], { cwd, encoding: "utf8" });
  if (!run.stdout.trim().startsWith("{")) throw new Error(`the reference's compile printed no receipt (${run.status}): ${run.stderr}`);
  return { exit: run.status ?? -1, receipt: JSON.parse(run.stdout) as Record<string, unknown> };
}
