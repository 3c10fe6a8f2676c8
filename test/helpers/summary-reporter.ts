import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints one plain closing line after vitest's own summary, so a CI log reader that does not know
 * vitest's format still sees the counts: `N passed, N failed, N skipped`, the same test counts as
 * vitest's "Tests" line. A run that failed must never read as clean, so what failed outside any
 * test (a file that failed to load or whose hook threw, an error vitest caught between tests) is
 * named on the same line, as vitest names it on its "Test Files" and "Errors" lines. Then why tests
 * were skipped, and the tests whose own checks ran without their live reference comparison
 * (test/helpers/kernel-reference.ts), one line per reason.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    process.stdout.write(`\n${summaryLines(countResults(testModules), unhandledErrors.length).join("\n")}\n`);
  }
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Test files that failed with no failed test to show for it (collection error, a throwing hook). */
  filesFailedOutsideTests: number;
  /** Skip reason -> how many tests were skipped for it ("" when a test was skipped without one). */
  skipReasons: Map<string, number>;
  /** Reason -> how many tests ran their own checks without the live reference comparison. */
  notCompared: Map<string, number>;
}

export function countResults(testModules: ReadonlyArray<TestModule>): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, filesFailedOutsideTests: 0, skipReasons: new Map(), notCompared: new Map() };
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const module of testModules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === "passed") counts.passed++;
      else if (result.state === "failed") failedHere++;
      else {
        counts.skipped++;
        bump(counts.skipReasons, result.state === "skipped" ? (result.note ?? "") : "");
      }
      const note = test.meta().liveReferenceNotCompared;
      if (note !== undefined && result.state === "passed") bump(counts.notCompared, note);
    }
    counts.failed += failedHere;
    // A collection error or a throwing beforeAll/afterAll fails the file, not a test.
    if (failedHere === 0 && (module.state() === "failed" || module.errors().length > 0)) counts.filesFailedOutsideTests++;
  }
  return counts;
}

export function summaryLines(counts: Counts, unhandledErrors: number): string[] {
  const outside = [
    counts.filesFailedOutsideTests > 0 ? `${counts.filesFailedOutsideTests} test file${counts.filesFailedOutsideTests === 1 ? "" : "s"} failed outside any test` : "",
    unhandledErrors > 0 ? `${unhandledErrors} error${unhandledErrors === 1 ? "" : "s"} outside tests` : "",
  ].filter(Boolean);
  const lines = [`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${outside.length > 0 ? `; and ${outside.join(", ")}` : ""}`];
  for (const [reason, n] of counts.skipReasons) lines.push(`  skipped ${n}: ${reason || "no reason given (skip or todo in the file, or a -t filter)"}`);
  for (const [reason, n] of counts.notCompared) lines.push(`  passed ${n} without their comparison: ${reason}`);
  return lines;
}
