import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary, so a
 * CI log reader that does not know vitest's format still sees the counts. A run that failed must
 * never read as clean: a file that failed to load or whose hook threw (its tests then show as
 * skipped) counts as one failure, and so does each error vitest caught outside any test.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const { passed, failed, skipped } = countResults(testModules);
    process.stdout.write(`\n${passed} passed, ${failed + unhandledErrors.length} failed, ${skipped} skipped\n`);
  }
}

/** Test counts, with each failed file whose failure no test carries counted as one failed test. */
export function countResults(testModules: ReadonlyArray<TestModule>): { passed: number; failed: number; skipped: number } {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const module of testModules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") passed++;
      else if (state === "failed") failedHere++;
      else skipped++;
    }
    // A collection error or a throwing beforeAll/afterAll fails the file, not a test.
    if (failedHere === 0 && (module.state() === "failed" || module.errors().length > 0)) failedHere = 1;
    failed += failedHere;
  }
  return { passed, failed, skipped };
}
