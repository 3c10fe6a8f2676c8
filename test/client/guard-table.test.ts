import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGuard } from "../../client/ops/guard/run-guard.js";
import { cleanEnv, ensureBuilt, runCli, runProgram } from "../helpers/cli.js";
import { makeRepo, tempDir } from "./git-repo.js";
import { buildTableSandbox, CASE_TABLE, TABLE, writeTableManifest } from "./guard-table.js";
import { caseInsensitiveVolume } from "./guard-volume.js";

// The guard's table (guard-table.ts) on Claude Code's PreToolUse events, run in-process through
// runGuard, the function `handoff guard` runs (stdin JSON in; exit 2 and stderr to block), with a
// few events through the built binary for the contract. GUARD_BUNDLE=path/to/guard.cjs runs every
// event through that bundle instead (an older build: the "before" counts).

const base = tempDir("handoff-guard-table-");
const box = buildTableSandbox(base);
const { repo, env, cwdOf, payload } = box;

/** One event through the guard: in-process (runGuard), or through GUARD_BUNDLE when set. */
async function guard(input: string, cwd: string): Promise<{ code: number | null; stderr: string }> {
  const bundle = process.env.GUARD_BUNDLE;
  if (bundle) return runProgram(process.execPath, ["-e", `require(${JSON.stringify(bundle)}).runGuardProcess()`], { cwd, env: cleanEnv(env), input });
  const outcome = runGuard(input, { cwd, env });
  return { code: outcome.exitCode, stderr: outcome.message === "" ? "" : `${outcome.message}\n` };
}

function expectVerdict(run: { code: number | null; stderr: string }, expected: 0 | 2): void {
  expect(run.code, run.stderr).toBe(expected);
  if (expected === 2) expect(run.stderr).toMatch(/^BLOCKED by sealed manifest: |could not judge/);
  else expect(run.stderr).toBe("");
}

beforeAll(async () => {
  await ensureBuilt();
  const armed = await runCli(["context", "sealed.json", "--activate"], { cwd: repo, env });
  expect(armed.code, armed.stderr).toBe(0);
}, 300_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the guard's table under a sealed manifest", () => {
  it.each(TABLE.map((c) => [c.class, c.expected === 2 ? "blocks" : "allows", c.name, c] as const))("[%s] %s %s", async (_class, _verdict, _name, c) => {
    expectVerdict(await guard(payload(c), cwdOf(c.at)), c.expected);
  });

  it("holds at least 120 events, every class with a control that stays allowed", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(120);
    const classes = new Set(TABLE.map((c) => c.class));
    for (const klass of classes) {
      expect(
        TABLE.some((c) => c.class === klass && c.expected === 2),
        klass,
      ).toBe(true);
      expect(
        TABLE.some((c) => c.class === klass && c.expected === 0),
        klass,
      ).toBe(true);
    }
  });
});

describe("the built binary, the way Claude Code runs the hook", () => {
  const picks = ["an exclude that misses the modified key.pem", "git diff of a named safe file", "a redirection before the program", "Read of a safe file"];
  it.each(picks)("%s", async (name) => {
    const c = TABLE.find((entry) => entry.name === name)!;
    const cwd = cwdOf(c.at);
    const run = await runCli(["guard"], { cwd, env, input: payload(c) });
    expectVerdict(run, c.expected);
  });
});

describe("on a case-insensitive volume", () => {
  const volume = caseInsensitiveVolume(join(base, "volume"));

  beforeAll(async () => {
    const root = volume.root();
    if (!root) return;
    makeRepo(root, { "README.md": "# Demo\n", "src/a.ts": "export const a = 1;\n", "secrets/prod.env": "API_KEY=live-1234\n", "key.pem": "secret\n" });
    writeTableManifest(root);
    const armed = await runCli(["context", "sealed.json", "--activate"], { cwd: root, env });
    expect(armed.code, armed.stderr).toBe(0);
    volume.aliases(root, [
      [".GIT", ".git"],
      ["SECRETS", "secrets"],
      ["Secrets", "secrets"],
      ["SRC", "src"],
      ["Key.PEM", "key.pem"],
      ["readme.md", "README.md"],
    ]);
  }, 120_000);

  afterAll(() => volume.release());

  it.each(CASE_TABLE.map((c) => [c.expected === 2 ? "blocks" : "allows", c.name, c] as const))("%s %s", async (_verdict, _name, c) => {
    const root = volume.root();
    if (!root) return;
    expectVerdict(await guard(payload(c, root, root), root), c.expected);
  });
});
