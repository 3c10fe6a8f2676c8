import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGuard } from "../../client/ops/guard/run-guard.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { preToolUseEvent } from "../helpers/hook-events.js";
import { makeRepo, writeSealedManifest } from "./git-repo.js";
import { guardSandbox } from "./guard-sandbox.js";
import { GUARD_CASES, type GuardCase, LONG_NAME } from "./guard-cases.js";

// `handoff guard` (the built hook) on PreToolUse events exactly as Claude Code sends them, under a
// sealed manifest armed by `handoff context --activate`: every bypass issue 22 found, the reads
// that already held, and the controls that must stay allowed (guard-cases.ts).

const { base, repo, env } = guardSandbox("handoff-guard-bypass-", { "secrets/prod.env": "API_KEY=live-1234\n" });
const outside = join(base, "elsewhere");
mkdirSync(outside);
symlinkSync("secrets", join(repo, "link"));
symlinkSync("loop2", join(repo, "loop"));
symlinkSync("loop", join(repo, "loop2"));

beforeAll(async () => {
  await ensureBuilt();
  writeSealedManifest(repo, "sealed.json", { required: ["src/a.ts"] });
  const armed = await runCli(["context", "sealed.json", "--activate"], { cwd: repo, env });
  expect(armed.code, armed.stderr).toBe(0);
}, 120_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

const cwdOf = (at: GuardCase["at"]) => (at === "outside" ? outside : at === "sub" ? join(repo, "src") : repo);
const withRoot = (value: unknown): unknown => (typeof value === "string" ? value.replaceAll("R/", `${repo}/`).replaceAll(" R ", ` ${repo} `).replace(/ R$/, ` ${repo}`) : value);

/** A PreToolUse event as Claude Code writes it on the hook's stdin, R standing for the repository. */
function hookEvent(tool_name: string, tool_input: Record<string, unknown>, cwd: string): string {
  const input = Object.fromEntries(Object.entries(tool_input).map(([key, value]) => [key, withRoot(value)]));
  return preToolUseEvent(tool_name, input, { cwd, transcriptPath: join(base, "home", ".claude", "projects", "-repo", "5f0c2a9e-1b7d-4c3e-9a61-2f8e7d6c5b4a.jsonl") });
}

const guard = (payload: string, cwd: string) => runCli(["guard"], { cwd, env, input: payload });

/** The decision `handoff guard` makes, in-process (the built binary's contract is held by the exceptions below and guard-table.test.ts). */
function judged(payload: string, cwd: string): { code: number; stderr: string } {
  const outcome = runGuard(payload, { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
  return { code: outcome.exitCode, stderr: outcome.message };
}

describe("handoff guard under a sealed manifest, on Claude Code's PreToolUse events", () => {
  it.each(GUARD_CASES.map((c) => [c.expected === 2 ? "blocks" : "allows", c.name, c] as const))("%s %s", async (_verdict, _name, c) => {
    const cwd = cwdOf(c.at);
    const run = judged(hookEvent(c.tool, c.input, cwd), cwd);
    expect(run.code, run.stderr).toBe(c.expected);
    if (c.expected === 2) expect(run.stderr).toMatch(/BLOCKED|could not judge/);
    else expect(run.stderr).toBe("");
  });

  it("covers every kind of case the issue lists", () => {
    expect(GUARD_CASES.filter((c) => c.bypass).length).toBeGreaterThanOrEqual(30);
    expect(GUARD_CASES.filter((c) => c.expected === 0).length).toBeGreaterThanOrEqual(15);
  });
});

describe("exceptions", () => {
  it("a path that makes stat throw exits 2 with the reason while a manifest is active", async () => {
    const run = await guard(hookEvent("Bash", { command: `grep -r x ${LONG_NAME}/y` }, repo), repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/could not judge the call \(ENAMETOOLONG/);
  });

  it("exits 0 on the same event when no manifest is active", async () => {
    const bare = makeRepo(join(base, "bare"), { "README.md": "# Bare\n" });
    symlinkSync("l2", join(bare, "l1"));
    symlinkSync("l1", join(bare, "l2"));
    for (const command of ["grep -r x l1/y", `grep -r x ${LONG_NAME}/y`, "git diff"]) {
      const run = await guard(hookEvent("Bash", { command }, bare), bare);
      expect(run.code, command).toBe(0);
      expect(run.stderr).toBe("");
    }
  });
});
