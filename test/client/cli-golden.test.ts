import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCodeForOutcome, main } from "../../client/cli/main.js";
import type { Io } from "../../client/platform/io.js";
import { COMMANDS as BOUND } from "../../client/cli/registry.js";
import { startCaptureServer } from "../helpers/capture-server.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { normalize } from "./cli-helpers.js";

const COMMANDS = BOUND.map((c) => c.spec);

// Golden runs of the built CLI (FORCE_COLOR=0): every command's --help, and one typical run of
// each, with stdout, stderr and the exit code snapshotted.

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-golden-")));
beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function box(name: string) {
  const dir = join(base, name);
  mkdirSync(join(dir, "home"), { recursive: true });
  const env = { HOME: join(dir, "home"), TMPDIR: dir, HANDOFF_ROOT: join(dir, "store"), XDG_CONFIG_HOME: join(dir, "config") };
  return { dir, env, placeholders: { [dir]: "<DIR>" } };
}

const BODY = "# Parse config\n\nThe parse_config loader half works; __init__.py exports it.\n\n## State\nTests pass.\n\n## Next\nWire the CLI.\n";

describe("every command's --help", () => {
  it.each(COMMANDS.map((c) => c.name))("handoff %s --help", async (name) => {
    const run = await runCli([name, "--help"], { cwd: base });
    expect(run.code).toBe(0);
    expect(run).toMatchSnapshot();
  });

  // The launcher answers --help from dist/help.cjs (and runs the guard from dist/guard.cjs) without
  // loading the CLI: each text must be the one the CLI itself prints, the guard's included.
  it.each(COMMANDS.map((c) => c.name))("the launcher's %s --help is the CLI's own", async (name) => {
    let out = "";
    const io: Io = { out: (t) => (out += t), err: () => undefined, progress: (_m, w) => w, stdin: process.stdin, stdinIsTTY: false, env: {}, cwd: base, color: false };
    expect(await main([name, "--help"], io)).toBe(0);
    const run = await runCli([name, "--help"], { cwd: base });
    expect(run.stdout).toBe(out);
  });

  it("handoff --help lists every command and --version", async () => {
    const run = await runCli(["--help"], { cwd: base });
    for (const c of COMMANDS) expect(run.stdout).toContain(`  ${c.name}`);
    expect(run.stdout).toContain("--version");
    expect(run).toMatchSnapshot();
  });
});

describe("one typical run of each command", () => {
  it("create, list, show, validate, rm, prune", async () => {
    const b = box("store");
    const created = await runCli(["create", "--keyword", "config"], { cwd: b.dir, env: b.env, input: BODY });
    expect(normalize(created, b.placeholders)).toMatchSnapshot();
    const path = join(b.dir, "store", "ce-handoff", "general", "parse-config.md");
    expect(existsSync(path)).toBe(true);
    const list = await runCli(["list"], { cwd: b.dir, env: b.env });
    expect(normalize(list, b.placeholders)).toMatchSnapshot();
    const show = await runCli(["show", path], { cwd: b.dir, env: b.env });
    expect(show.stdout).toContain("The parse_config loader half works");
    expect(normalize(await runCli(["validate", path], { cwd: b.dir, env: b.env }), b.placeholders)).toMatchSnapshot();
    expect(normalize(await runCli(["prune", "--older-than", "30d"], { cwd: b.dir, env: b.env }), b.placeholders)).toMatchSnapshot();
    expect(normalize(await runCli(["rm", path], { cwd: b.dir, env: b.env }), b.placeholders)).toMatchSnapshot();
    expect(existsSync(path)).toBe(false);
  });

  it("resume (nothing found), scan, render, context, published, revoke, publish, team, config, completion", async () => {
    const b = box("misc");
    writeFileSync(join(b.dir, "notes.md"), "password = hunter2hunter2hunter2\n");
    const runs = {
      resume: await runCli(["resume", "auth"], { cwd: b.dir, env: b.env }),
      scan: await runCli(["scan", "notes.md"], { cwd: b.dir, env: b.env }),
      render: await runCli(["render", "notes.md"], { cwd: b.dir, env: b.env }),
      context: await runCli(["context", "notes.md"], { cwd: b.dir, env: b.env }),
      published: await runCli(["published"], { cwd: b.dir, env: b.env }),
      revoke: await runCli(["revoke", "q3Jf0wS5b1mCq2o9X0aZ4w"], { cwd: b.dir, env: b.env }),
      publish: await runCli(["publish", "notes.md"], { cwd: b.dir, env: b.env }),
      team: await runCli(["team"], { cwd: b.dir, env: b.env }),
      configSet: await runCli(["config", "set", "server", "http://127.0.0.1:8787"], { cwd: b.dir, env: b.env }),
      configGet: await runCli(["config", "get", "server"], { cwd: b.dir, env: b.env }),
      configPath: await runCli(["config", "path"], { cwd: b.dir, env: b.env }),
    };
    const normalized = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, normalize(v, b.placeholders)]));
    expect(normalized).toMatchSnapshot();
    expect(runs.configGet.stdout.trim()).toBe("http://127.0.0.1:8787");
    const completion = await runCli(["completion", "bash"], { cwd: b.dir, env: b.env });
    expect(completion.code).toBe(0);
    expect(completion.stdout).toContain("complete -o default -F _handoff handoff");
    for (const c of COMMANDS) expect(completion.stdout).toContain(c.name);
  });
});

describe("defects a new user hit", () => {
  it("8: a mistyped command with a body on stdin is a usage error with a suggestion, and writes nothing", async () => {
    const b = box("typo");
    const run = await runCli(["resmue", "auth"], { cwd: b.dir, env: b.env, input: BODY });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("did you mean: handoff resume?");
    expect(existsSync(join(b.dir, "store"))).toBe(false);
  });

  it("an id that starts with '-' (links from before the server stopped issuing them) is pointed to '--'", async () => {
    const b = box("dash-id");
    const dashId = "-q3Jf0wS5b1mCq2o9X0aZw";
    const run = await runCli(["revoke", dashId], { cwd: b.dir, env: b.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`handoff revoke -- ${dashId}`);
    const separated = await runCli(["revoke", "--", dashId], { cwd: b.dir, env: b.env });
    expect(separated.stderr).not.toContain("Unknown option");
  });

  it("8: bare handoff on a terminal shows the help", async () => {
    let out = "";
    const io: Io = { out: (t) => (out += t), err: () => undefined, progress: (_m, w) => w, stdin: process.stdin, stdinIsTTY: true, env: {}, cwd: base, color: false };
    expect(await main([], io)).toBe(0);
    expect(out).toContain("Usage: handoff <command>");
  });

  it("2: --to newdir/ with a missing folder is refused, never a file named newdir", async () => {
    const b = box("todir");
    const run = await runCli(["create", "--to", "newdir/"], { cwd: b.dir, env: b.env, input: BODY });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("the folder");
    expect(existsSync(join(b.dir, "newdir"))).toBe(false);
  });

  it("11: with --json, stderr does not end with a dangling 'Resume in a new session with:'", async () => {
    const b = box("json");
    const run = await runCli(["create", "--json"], { cwd: b.dir, env: b.env, input: BODY });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("Resume in a new session with:");
    expect(JSON.parse(run.stdout).path).toMatch(/parse-config\.md$/);
  });

  it("10: render on a Markdown handoff names it, not '1:1: invalid number'", async () => {
    const b = box("render");
    writeFileSync(join(b.dir, "h.md"), "---\nartifact_contract: ce-handoff/v1\n---\n# x\n");
    const run = await runCli(["render", "h.md"], { cwd: b.dir, env: b.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("not a kernel.handoff/v1 manifest");
    expect(run.stderr).not.toContain("1:1");
  });

  it("1: a share link with a damaged key fails as a share link (no page HTML, no network)", async () => {
    const b = box("badkey");
    for (const url of ["http://127.0.0.1:9/h/q3Jf0wS5b1mCq2o9X0aZ4w#abc", "http://127.0.0.1:9/h/q3Jf0wS5b1mCq2o9X0aZ4w#abc%20"]) {
      const run = await runCli(["resume", url], { cwd: b.dir, env: b.env });
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/key/i);
    }
  });

  it("9: --max-views outside the API's bounds and a malformed --expires are refused before anything is written", async () => {
    const b = box("bounds");
    for (const args of [
      ["--max-views", "0"],
      ["--max-views", "1001"],
      ["--expires", "7x"],
    ]) {
      const run = await runCli(["create", "--publish", "--server", "http://127.0.0.1:9", ...args], { cwd: b.dir, env: b.env, input: BODY });
      expect(run.code).toBe(2);
      expect(existsSync(join(b.dir, "store"))).toBe(false);
    }
  });

  it("publish --passphrase refuses a one-character passphrase, says what is accepted and how to give one, and sends nothing", async () => {
    const b = box("weak-passphrase");
    writeFileSync(join(b.dir, "notes.md"), BODY);
    const server = await startCaptureServer(() => ({ status: 500 }));
    try {
      const run = await runCli(["publish", "notes.md", "--passphrase", "--server", server.url], { cwd: b.dir, env: b.env, input: "a\n" });
      expect(run.code).toBe(2);
      expect(server.requests).toEqual([]);
      expect(normalize(run, b.placeholders)).toMatchSnapshot();
    } finally {
      await server.close();
    }
  });

  it("--quiet drops the report on stderr and keeps the result on stdout", async () => {
    const b = box("quiet");
    const run = await runCli(["create", "--quiet"], { cwd: b.dir, env: b.env, input: BODY });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("handoff resume");
  });

  it("rm refuses a file outside the managed store and deletes nothing", async () => {
    const b = box("rmout");
    writeFileSync(join(b.dir, "x.md"), "---\nartifact_contract: ce-handoff/v1\ncreated_at: 2026-01-01T00:00:00.000Z\n---\nbody\n");
    const run = await runCli(["rm", "x.md"], { cwd: b.dir, env: b.env });
    expect(run.code).toBe(1);
    expect(readdirSync(b.dir)).toContain("x.md");
  });
});

describe("exit codes", () => {
  it("come from one pure function of the outcome", () => {
    expect(exitCodeForOutcome("ok")).toBe(0);
    expect(exitCodeForOutcome("nothing_found")).toBe(1);
    expect(exitCodeForOutcome("usage")).toBe(2);
    expect(exitCodeForOutcome("unparseable")).toBe(2);
    expect(exitCodeForOutcome("network")).toBe(3);
  });
});
