import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot, runCli } from "../helpers/cli.js";
import { tempDir } from "./git-repo.js";

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
    expect(run.stderr).toMatch(/--agent must be claude-code or codex, got 'vim'/);
  });
});
