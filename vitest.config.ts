import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Three tiers: the shared core and the CLI run in Node; the worker runs inside real workerd; the
// share page runs in a real Chromium against a real `wrangler dev`.
export default defineConfig({
  test: {
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "node",
          include: ["test/shared/**/*.test.ts", "test/client/**/*.test.ts", "test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // A test that makes dozens of requests (the rate-limit ones) misses 5 s on a busy machine.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
