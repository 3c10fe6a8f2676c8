import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./git-repo.js";

// The import rules `npm run lint` enforces (.dependency-cruiser.cjs) pass on the real tree, which
// shows only that nothing breaks them today. Here the real rules run on a small planted tree: a
// clean one passes, and each planted violation fails with the rule meant to catch it.

const repo = fileURLToPath(new URL("../..", import.meta.url));
const DEPCRUISE = join(repo, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

/** A tree that keeps every rule: worker layers top to bottom, shared folders one way. */
const CLEAN: Record<string, string> = {
  "worker/index.ts": 'import { app } from "./app.js";\nexport default app;\n',
  "worker/app.ts": 'import { handle } from "./handlers/read.js";\nexport const app = handle;\n',
  "worker/bindings.ts": 'import type { Access } from "./durable/access.js";\nexport interface Bindings { ACCESS: Access }\n',
  "worker/handlers/read.ts":
    'import type { Bindings } from "../bindings.js";\nimport { decide } from "../durable/access.js";\nimport { auth } from "../http/auth.js";\nexport const handle = (env: Bindings) => auth() && decide(env);\n',
  "worker/http/auth.ts": 'import { stub } from "../storage/stubs.js";\nexport const auth = () => stub();\n',
  "worker/durable/access.ts": 'import { stub } from "../storage/stubs.js";\nexport interface Access { id: string }\nexport const decide = (env: unknown) => stub() && env;\n',
  "worker/storage/stubs.ts": 'import { limit } from "../../shared/alpha/limit.js";\nexport const stub = () => limit;\n',
  "shared/alpha/limit.ts": 'import { layout } from "../beta/layout.js";\nexport const limit = layout + 1;\n',
  "shared/beta/layout.ts": "export const layout = 1;\n",
  "shared/errors.ts": "export class HandoffError extends Error {}\n",
};

/** Each planted file, the rule it must break, and the dependency (or folder) the rule reports. */
const PLANTED = [
  {
    what: "a storage module importing a handler",
    files: { "worker/storage/planted.ts": 'import { handle } from "../handlers/read.js";\nexport const x = handle;\n' },
    rule: "worker-storage-imports-only-down",
    from: "worker/storage/planted.ts",
  },
  {
    what: "a Durable Object importing bindings.ts, which names it",
    files: { "worker/durable/planted.ts": 'import type { Bindings } from "../bindings.js";\nexport type X = Bindings;\n' },
    rule: "worker-durable-imports-only-down",
    from: "worker/durable/planted.ts",
  },
  {
    what: "a middleware importing a handler",
    files: { "worker/http/planted.ts": 'import { handle } from "../handlers/read.js";\nexport const x = handle;\n' },
    rule: "worker-http-imports-only-down",
    from: "worker/http/planted.ts",
  },
  {
    what: "a handler importing the routes",
    files: { "worker/handlers/planted.ts": 'import { app } from "../app.js";\nexport const x = app;\n' },
    rule: "worker-handlers-imports-only-down",
    from: "worker/handlers/planted.ts",
  },
  {
    what: "a worker folder outside the layers",
    files: { "worker/misc/planted.ts": 'import { stub } from "../storage/stubs.js";\nexport const x = stub;\n' },
    rule: "worker-files-live-in-a-layer",
    from: "worker/misc/planted.ts",
  },
  {
    // No file cycle: beta/planted.ts -> alpha/planted-leaf.ts is a different pair of files than
    // alpha/limit.ts -> beta/layout.ts, yet the two folders now import each other.
    what: "two shared/ folders importing each other through different files",
    files: {
      "shared/beta/planted.ts": 'import { leaf } from "../alpha/planted-leaf.js";\nexport const x = leaf;\n',
      "shared/alpha/planted-leaf.ts": "export const leaf = 1;\n",
    },
    rule: "no-folder-cycle",
    from: "shared/beta",
  },
];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The real config and tsconfig beside `files`, cruised as `npm run lint` cruises the repository. */
function cruise(files: Record<string, string>): Violation[] {
  const dir = tempDir("handoff-layers-");
  made.push(dir);
  for (const name of [".dependency-cruiser.cjs", "tsconfig.base.json"]) copyFileSync(join(repo, name), join(dir, name));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "./tsconfig.base.json", include: ["shared/**/*.ts", "worker/**/*.ts"] }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = spawnSync(process.execPath, [DEPCRUISE, "shared", "worker", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.stdout === "") throw new Error(`depcruise printed nothing (exit ${run.status ?? run.signal}): ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(result.summary.totalCruised).toBe(Object.keys(files).length);
  return result.summary.violations;
}

describe("the import rules (.dependency-cruiser.cjs)", () => {
  it("pass on a tree that keeps the worker's layers and shared/'s folders one way", () => {
    expect(cruise(CLEAN)).toEqual([]);
  });

  // One cruise of every plant together: each expectation names its own file, so none can pass on another's violation.
  let planted: Violation[] = [];
  beforeAll(() => {
    planted = cruise({ ...CLEAN, ...Object.assign({}, ...PLANTED.map((p) => p.files)) });
  });
  it.each(PLANTED)("fail on $what ($rule)", ({ rule, from }) => {
    const caught = planted.filter((v) => v.rule.name === rule && v.from === from);
    expect(caught, JSON.stringify(planted.map((v) => [v.rule.name, v.from, v.to]))).not.toEqual([]);
  });
});
