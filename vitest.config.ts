import { availableParallelism } from "node:os";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Three tiers: the shared core and the CLI run in Node; the worker runs inside real workerd; the
// share page runs in a real Chromium against a real `wrangler dev`. Time limits are generous on
// purpose: they only turn a hang into a failure, and a loaded 2-core machine must not trip them.
// The global setup gives the run one TMPDIR and, at the end, stops every process the tests
// started and removes that folder, even after a failure or a timeout.
export default defineConfig({
  test: {
    // Two test files at a time even on 2 cores: vitest's own default there is one (cores - 1),
    // and most of a file's time is spent waiting on what it started (the CLI, git, wrangler dev,
    // Chromium), so one worker left a core idle for half of the run. More cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ["./test/helpers/global-setup.ts"],
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "node",
          include: ["test/shared/**/*.test.ts", "test/client/**/*.test.ts", "test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
