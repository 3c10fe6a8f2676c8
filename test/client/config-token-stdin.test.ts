import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { tempDir } from "./git-repo.js";

// `handoff config set token -` reads the token from stdin (never visible in ps); a token on argv
// still works but warns.

const base = tempDir("handoff-config-token-");
const env = { HOME: join(base, "home"), XDG_CONFIG_HOME: join(base, "config") };
const file = join(base, "config", "handoff", "config.json");
const stored = () => (JSON.parse(readFileSync(file, "utf8")) as { servers: Record<string, { token?: string; team_token?: string }> }).servers["http://127.0.0.1:8787"];
const config = (args: string[], input = "") => runCli(["config", ...args], { cwd: base, env, input });

beforeAll(async () => {
  await ensureBuilt();
  expect((await config(["set", "server", "http://127.0.0.1:8787"])).code).toBe(0);
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("config set token", () => {
  it("'-' takes the token from stdin, one trailing newline dropped, with no warning", async () => {
    const run = await config(["set", "token", "-"], "tok_from_stdin_123\n");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/warning/);
    expect(stored()?.token).toBe("tok_from_stdin_123");
    const team = await config(["set", "team_token", "-"], "team_from_stdin_456");
    expect(team.code, team.stderr).toBe(0);
    expect(stored()?.team_token).toBe("team_from_stdin_456");
  });

  it("refuses an empty stdin or more than one word, and keeps what was stored", async () => {
    for (const input of ["", "\n", "two words"]) {
      const run = await config(["set", "token", "-"], input);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/stdin (was empty|holds more than one word)/);
    }
    expect(stored()?.token).toBe("tok_from_stdin_123");
  });

  it("a token on argv still works, with a warning that ps and history see it", async () => {
    const run = await config(["set", "token", "tok_on_argv_789"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: the token was given on the command line, where ps and your shell history can see it/);
    expect(stored()?.token).toBe("tok_on_argv_789");
  });
});
