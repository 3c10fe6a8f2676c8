import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, ensureBuilt, runCli } from "../helpers/cli.js";
import { type McpSession, startMcp } from "../helpers/mcp-client.js";
import { SUFFICIENCY_TABLE, type SufficiencyRow } from "../shared/orient/sufficiency-table.js";
import { tempDir } from "./git-repo.js";

// A few rows of the sufficiency table through every front end that writes or reads a handoff:
// the built CLI's create and resume, and the MCP create tool over stdio with the official SDK
// client. One judgement (shared/orient/sufficiency.ts): the same verdict everywhere.

const ROWS = [
  "objective and current state on consecutive lines",
  "a paragraph: what is being done, what fails, what comes next",
  "a title heading over a checklist",
  "an objective alone",
  "a state with no objective",
  "a pointer to the chat",
  "labels with nothing after them",
].map((name) => {
  const row = SUFFICIENCY_TABLE.find((r) => r.name === name);
  if (!row) throw new Error(`no table row named ${name}`);
  return row;
});

const base = tempDir("handoff-sufficiency-");
const store = join(base, "store");
const env = cleanEnv({ HOME: join(base, "home"), HANDOFF_ROOT: store });
let mcp: McpSession | undefined;

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(join(base, "home"));
  mcp = await startMcp({ cwd: base, env, name: "handoff-sufficiency" });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  rmSync(base, { recursive: true, force: true });
}, 30_000);

/** Every file in the managed store: a refused create must add none. */
const stored = (): string[] => (readdirSync(base).includes("store") ? readdirSync(store, { recursive: true }).map(String).sort() : []);

type Warning = { code: string; message: string };

describe("one verdict in create, resume and the MCP create tool", () => {
  it.each(ROWS)("$verdict: $name", (row) => throughEveryFrontEnd(row), 60_000);

  it("an unsure body that still names both parts is oriented, with what looks thin said first", async () => {
    const created = await runCli(["create", "--json"], { cwd: base, env, input: "Goal: parser\nStatus: the lexer is done, the printer fails on tabs\n" });
    const { path, warnings } = JSON.parse(created.stdout) as { path: string; warnings: Warning[] };
    expect(warnings.find((w) => w.code === "unsure")?.message).toMatch(/its objective is a word or two.*resume will orient from it with the same warning/);
    const resumed = await runCli(["resume", path], { cwd: base, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/This source looks thin; check it with whoever wrote it before relying on it:\n {2}- its objective is a word or two/);
  }, 60_000);
});

async function throughEveryFrontEnd({ body, verdict }: SufficiencyRow): Promise<void> {
  const before = stored();
  const created = await runCli(["create", "--json"], { cwd: base, env, input: body });
  const mcpCreated = await mcp!.call("create", { body });

  if (verdict === "insufficient") {
    expect(created.code).toBe(1);
    const error = JSON.parse(created.stdout).error as { code: string; hint: string };
    expect(error.code).toBe("insufficient");
    expect(error.hint).toMatch(/run handoff create again, or pass --allow-insufficient/);
    expect(mcpCreated.isError).toBe(true);
    const mcpError = (mcpCreated.structuredContent as { error: { code: string; hint: string } }).error;
    expect(mcpError.code).toBe("insufficient");
    expect(mcpError.hint).toMatch(/call create again, or pass allow_insufficient: true/);
    expect(stored()).toEqual(before);
    return;
  }

  expect(created.code, created.stderr).toBe(0);
  const result = JSON.parse(created.stdout) as { path: string; warnings: Warning[] };
  expect(mcpCreated.isError ?? false, JSON.stringify(mcpCreated.content)).toBe(false);
  const mcpResult = mcpCreated.structuredContent as { warnings: Warning[] };
  const verdictWarnings = (warnings: Warning[]) => warnings.filter((w) => w.code === "unsure" || w.code === "insufficient").map((w) => w.code);
  expect(verdictWarnings(result.warnings)).toEqual(verdict === "unsure" ? ["unsure"] : []);
  expect(verdictWarnings(mcpResult.warnings)).toEqual(verdictWarnings(result.warnings));

  // Resume reads what create wrote and gives it the verdict create announced.
  const resumed = await runCli(["resume", "--json", result.path], { cwd: base, env });
  const orientation = JSON.parse(resumed.stdout) as { verdict: string; sufficient: boolean; thin: string[] };
  expect(orientation.verdict).toBe(verdict);
  expect(resumed.code).toBe(orientation.sufficient ? 0 : 1);
}
