import { spawnSync } from "node:child_process";
import { TestRunner } from "vitest";
import { type ReferenceVerdict, locateReference, referenceScript, runReferenceValidate } from "./reference-facts.js";

/**
 * Live checks against kernel's reference runtime (the spec folder's kernel/reference, unchanged,
 * used as an oracle), for the tests that compare Handoff with it on what they build at run time.
 * Where this machine has no reference (a clone without ../shared/spec, or no python3), a test that
 * is only such a comparison is skipped with the reason (`liveSpecDir` and every function that
 * runs the reference), and a test with checks of its own asks `referenceHere()` first: its own
 * checks run, and the summary counts it as not compared. The committed facts
 * (reference-facts.ts) cover what must hold everywhere.
 */

export type { ReferenceVerdict };

const LOCATION = locateReference();

/** Why the live reference checks do not run here, or undefined when they do. */
export const REFERENCE_UNAVAILABLE: string | undefined = "reason" in LOCATION ? LOCATION.reason : undefined;

/** The reference's spec folder; skips the calling test, with the reason, when there is none. */
export function liveSpecDir(): string {
  if ("specDir" in LOCATION) return LOCATION.specDir;
  const test = TestRunner.getCurrentTest();
  if (!test) throw new Error(`kernel's reference is needed outside a test, and ${LOCATION.reason}`);
  return test.context.skip(`live reference check: ${LOCATION.reason}`);
}

/** The reference's `kernel-manifest` script (skips the calling test when there is none). */
export function liveReferenceScript(): string {
  return referenceScript(liveSpecDir());
}

/** The reference's verdict on each absolute path, resolving manifest paths against `cwd`'s git repository. */
export function referenceValidate(files: readonly string[], cwd: string): ReferenceVerdict[] {
  return runReferenceValidate(liveReferenceScript(), files, cwd);
}

/** Fails with the reference's own words unless it accepts every file (where it is here: else marks the test, see referenceHere). */
export function expectReferenceAccepts(files: readonly string[], cwd: string): void {
  if (!referenceHere()) return;
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
  const run = spawnSync("python3", [liveReferenceScript(), "divergence", file, "--json"], { cwd, env, encoding: "utf8" });
  const start = run.stdout.indexOf("{");
  if (start === -1) throw new Error(`the reference's divergence printed no JSON (${run.status}): ${run.stderr}`);
  const report = JSON.parse(run.stdout.slice(start, run.stdout.lastIndexOf("}") + 1)) as Omit<ReferenceDivergence, "exit">;
  return {
    exit: run.status ?? -1,
    events: report.events.map(({ event, status }) => ({ event, status })),
    phases: report.phases.map(({ name, status }) => ({ name, status })),
    hard_divergence: report.hard_divergence,
  };
}

/** Our drift items in the reference's words: kernel events only, status match / warn / diverged. */
export function asReferenceEvents(drift: { event: string; status: string; severity: string }[]): { event: string; status: string }[] {
  const kernelEvents = /^(branch|commit|dirty|artifact)_/;
  return drift.filter((item) => kernelEvents.test(item.event)).map((item) => ({ event: item.event, status: item.status === "ok" ? "match" : item.severity === "hard" ? "diverged" : "warn" }));
}

/** The reference's `compile FILE` in `cwd`: its receipt (printed on stdout) and exit code. */
export function referenceCompile(file: string, cwd: string): { exit: number; receipt: Record<string, unknown> } {
  const run = spawnSync("python3", [liveReferenceScript(), "compile", file], { cwd, encoding: "utf8" });
  if (!run.stdout.trim().startsWith("{")) throw new Error(`the reference's compile printed no receipt (${run.status}): ${run.stderr}`);
  return { exit: run.status ?? -1, receipt: JSON.parse(run.stdout) as Record<string, unknown> };
}

declare module "vitest" {
  interface TaskMeta {
    /** Set on a test whose own checks ran but whose comparison with the live reference could not (test/helpers/summary-reporter.ts counts them). */
    liveReferenceNotCompared?: string;
  }
}

/**
 * For a comparison with the reference inside a test that has checks of its own: true when the
 * reference is here; otherwise marks the test (the summary line counts such tests, with the
 * reason) and returns false, so the test's own checks still run, pass or fail.
 */
export function referenceHere(): boolean {
  if (REFERENCE_UNAVAILABLE === undefined) return true;
  const test = TestRunner.getCurrentTest();
  if (test) test.meta.liveReferenceNotCompared = `live reference check: ${REFERENCE_UNAVAILABLE}`;
  return false;
}
