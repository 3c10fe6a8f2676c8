import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Two tiers: the shared core and the CLI run in Node; the worker runs inside real workerd.
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
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
        },
      },
    ],
  },
});
