import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot, runCli } from "../helpers/cli.js";
import { git, tempDir } from "./git-repo.js";

// `handoff install-skill` copies plugin/skills/handoff/ into a temp folder, says what it wrote, and
// never replaces a different version without --force.

const base = tempDir("handoff-install-skill-");
const home = join(base, "home");
const env = { HOME: home };

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(home);
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();
}
const shipped = join(repoRoot, "plugin", "skills", "handoff");

describe("handoff install-skill", () => {
  it("installs the skill into --dir D and prints every file it wrote", async () => {
    const dir = join(base, "project", ".claude", "skills");
    const run = await runCli(["install-skill", "--dir", dir], { cwd: base, env });
    expect(run.code, run.stderr).toBe(0);
    const target = join(dir, "handoff");
    expect(files(target)).toEqual(files(shipped));
    expect(files(target)).toEqual(expect.arrayContaining(["SKILL.md", join("references", "create.md"), join("references", "resume.md"), join("assets", "body-template.md")]));
    for (const file of files(shipped)) {
      expect(readFileSync(join(target, file), "utf8")).toBe(readFileSync(join(shipped, file), "utf8"));
      expect(run.stdout).toContain(`written: ${join(target, file)}`);
    }
    expect(run.stderr).toMatch(/Installed the handoff skill for claude-code/);
  });

  it("defaults to the agent's own skills folder under HOME (Claude Code, Codex)", async () => {
    const claude = await runCli(["install-skill", "--json"], { cwd: base, env });
    expect(claude.code, claude.stderr).toBe(0);
    expect(JSON.parse(claude.stdout)).toMatchObject({ agent: "claude-code", dir: join(home, ".claude", "skills", "handoff") });
    const codex = await runCli(["install-skill", "--agent", "codex", "--json"], { cwd: base, env });
    expect(codex.code, codex.stderr).toBe(0);
    const result = JSON.parse(codex.stdout) as { dir: string; files: { path: string; action: string }[] };
    expect(result.dir).toBe(join(home, ".codex", "skills", "handoff"));
    expect(result.files.map((f) => relative(result.dir, f.path)).sort()).toEqual(files(shipped));
  });

  it("reinstalling is a no-op; a changed file is kept unless --force", async () => {
    const dir = join(base, "again");
    await runCli(["install-skill", "--dir", dir], { cwd: base, env });
    const same = await runCli(["install-skill", "--dir", dir, "--json"], { cwd: base, env });
    expect((JSON.parse(same.stdout) as { files: { action: string }[] }).files.every((f) => f.action === "unchanged")).toBe(true);

    const skill = join(dir, "handoff", "SKILL.md");
    writeFileSync(skill, "my edits\n");
    const refused = await runCli(["install-skill", "--dir", dir], { cwd: base, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/different version .*SKILL\.md.*\n.*--force/s);
    expect(readFileSync(skill, "utf8")).toBe("my edits\n");

    const forced = await runCli(["install-skill", "--dir", dir, "--force"], { cwd: base, env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`replaced: ${skill}`);
    expect(readFileSync(skill, "utf8")).toBe(readFileSync(join(shipped, "SKILL.md"), "utf8"));
  });

  it("refuses a skill folder (or a folder in it) that is a symlink, and writes nothing through it", async () => {
    const elsewhere = join(base, "elsewhere");
    mkdirSync(join(elsewhere, "refs"), { recursive: true });
    const dir = join(base, "linked", "skills");
    mkdirSync(dir, { recursive: true });
    symlinkSync(elsewhere, join(dir, "handoff"));
    const run = await runCli(["install-skill", "--dir", dir], { cwd: base, env });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/handoff is a symlink; not installing through it/);
    const nested = join(base, "nested", "skills");
    mkdirSync(join(nested, "handoff"), { recursive: true });
    symlinkSync(join(elsewhere, "refs"), join(nested, "handoff", "references"));
    const second = await runCli(["install-skill", "--dir", nested], { cwd: base, env });
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(/references is a symlink/);
    expect(readdirSync(elsewhere, { recursive: true })).toEqual(["refs"]);
  });

  it("rejects an unknown agent as a usage error", async () => {
    const run = await runCli(["install-skill", "--agent", "vim"], { cwd: base, env });
    expect(run.code).toBe(2);
    // The registry's one message for a value outside a flag's declared choices.
    expect(run.stderr).toMatch(/--agent must be claude-code or codex or cursor, got 'vim'/);
  });
});

describe("handoff install-skill --agent cursor", () => {
  const project = () => {
    const dir = join(base, `cursor-${Math.random().toString(36).slice(2, 8)}`);
    mkdirSync(join(dir, "src"), { recursive: true });
    return dir;
  };
  const hooksOf = (dir: string) => JSON.parse(readFileSync(join(dir, ".cursor", "hooks.json"), "utf8")) as { version: number; hooks: Record<string, { command: string }[]> };
  const agents = readFileSync(join(repoRoot, "instructions", "AGENTS.md"), "utf8");

  it("writes .cursor/hooks.json (version 1: handoff hook at preCompact, sessionEnd, sessionStart) and the rule in the project, from any folder in it", async () => {
    const dir = project();
    git(dir, "init", "-q");
    const run = await runCli(["install-skill", "--agent", "cursor"], { cwd: join(dir, "src"), env });
    expect(run.code, run.stderr).toBe(0);
    expect(hooksOf(dir)).toEqual({
      version: 1,
      hooks: { preCompact: [{ command: "handoff hook" }], sessionEnd: [{ command: "handoff hook" }], sessionStart: [{ command: "handoff hook" }] },
    });
    const rule = readFileSync(join(dir, ".cursor", "rules", "handoff.mdc"), "utf8");
    expect(rule).toMatch(/^---\ndescription: "Create or resume a session handoff with the handoff CLI[^\n]*"\nalwaysApply: false\n---\n\n/);
    expect(rule.endsWith(agents)).toBe(true);
    expect(run.stdout.trim().split("\n")).toEqual([`written: ${join(dir, ".cursor", "hooks.json")}`, `written: ${join(dir, ".cursor", "rules", "handoff.mdc")}`]);
    expect(run.stderr).toMatch(/^Installed Handoff's hooks and rule for Cursor in /);
  });

  it("adds to the hooks already there, keeping every one of them; a second run changes nothing", async () => {
    const dir = project();
    mkdirSync(join(dir, ".cursor"));
    const mine = { version: 1, hooks: { sessionStart: [{ command: "./hooks/mine.sh" }], afterFileEdit: [{ command: "npx prettier --write" }] }, team: "kept" };
    writeFileSync(join(dir, ".cursor", "hooks.json"), JSON.stringify(mine));
    const run = await runCli(["install-skill", "--agent", "cursor", "--json"], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { files: { action: string }[] }).files.map((f) => f.action)).toEqual(["updated", "written"]);
    expect(hooksOf(dir)).toEqual({
      version: 1,
      hooks: {
        sessionStart: [{ command: "./hooks/mine.sh" }, { command: "handoff hook" }],
        afterFileEdit: [{ command: "npx prettier --write" }],
        preCompact: [{ command: "handoff hook" }],
        sessionEnd: [{ command: "handoff hook" }],
      },
      team: "kept",
    });
    const again = await runCli(["install-skill", "--agent", "cursor", "--json"], { cwd: dir, env });
    expect((JSON.parse(again.stdout) as { files: { action: string }[] }).files.map((f) => f.action)).toEqual(["unchanged", "unchanged"]);
  });

  it("refuses a hooks.json it cannot add to (not JSON, another version) and writes nothing; a changed rule is kept unless --force", async () => {
    for (const text of ["{torn", JSON.stringify({ version: 2, hooks: {} })]) {
      const dir = project();
      mkdirSync(join(dir, ".cursor"));
      writeFileSync(join(dir, ".cursor", "hooks.json"), text);
      const run = await runCli(["install-skill", "--agent", "cursor"], { cwd: dir, env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/hooks\.json (is not JSON|has version 2, not 1); not adding Handoff's hooks to it/);
      expect(readFileSync(join(dir, ".cursor", "hooks.json"), "utf8")).toBe(text);
      expect(readdirSync(join(dir, ".cursor"))).toEqual(["hooks.json"]);
    }
    const dir = project();
    await runCli(["install-skill", "--agent", "cursor"], { cwd: dir, env });
    const rule = join(dir, ".cursor", "rules", "handoff.mdc");
    writeFileSync(rule, "my rule\n");
    const refused = await runCli(["install-skill", "--agent", "cursor"], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(readFileSync(rule, "utf8")).toBe("my rule\n");
    expect((await runCli(["install-skill", "--agent", "cursor", "--force"], { cwd: dir, env })).code).toBe(0);
    expect(readFileSync(rule, "utf8").endsWith(agents)).toBe(true);
  });

  it("--dir D installs into that .cursor folder (~/.cursor: hooks for every project)", async () => {
    const run = await runCli(["install-skill", "--agent", "cursor", "--dir", join(home, ".cursor"), "--json"], { cwd: base, env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ agent: "cursor", dir: join(home, ".cursor") });
    expect(hooksOf(home).hooks.preCompact).toEqual([{ command: "handoff hook" }]);
  });
});
