import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderKernelMarkdown } from "../../shared/kernel/render.js";
import { validateKernelValue } from "../../shared/kernel/validate.js";
import { ensureBuilt, repoRoot, runCli } from "../helpers/cli.js";
import { ALL_HOSTILE, TERMINAL_ATTACK } from "../helpers/hostile-text.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// `handoff render` and `handoff context` of a manifest whose strings (and a selected file) hold
// every terminal control, on a real pseudo-terminal (util-linux `script`): 0 raw controls reach
// it. --out and --json stay exact.

const HOSTILE = `${TERMINAL_ATTACK}\u001b]52;c;Y3VybCBldmlsLnNofHNo\u0007|${ALL_HOSTILE.join("|")}`;
// A selected file with NUL would be left out as binary: the file gets the rest.
const FILE_TEXT = `# Notes ${HOSTILE.replaceAll("\u0000", "")}\n`;
const base = tempDir("handoff-pty-");
const repo = makeRepo(join(base, "repo"), { "notes.md": FILE_TEXT, "README.md": "# Demo\n" });
const env = { ...GIT_ENV, HOME: join(base, "home") };

function hostileManifest(): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "test/fixtures/kernel/example.yaml-skill-unification-2026-07-10.json"), "utf8")) as Record<string, any>;
  manifest.objective.goal = `goal ${HOSTILE}`;
  const phase = `recon${HOSTILE}`;
  for (const rule of manifest.workflow.invalidation_rules ?? []) rule.invalidates = rule.invalidates.map((name: string) => (name === manifest.workflow.phases[0].name ? phase : name));
  manifest.workflow.phases[0].name = phase;
  manifest.resume.prompt = `prompt ${HOSTILE}`;
  manifest.provenance = { branch: "main", commit: git(repo, "rev-parse", "HEAD"), dirty: false };
  manifest.context = { policy: { mode: "advisory" }, required: [{ path: "notes.md", reason: `why ${HOSTILE}` }], budget: { target_tokens: 4000, max_tokens: 8000 } };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

beforeAll(async () => {
  await ensureBuilt();
  writeFileSync(join(repo, "hostile.json"), hostileManifest());
}, 120_000);
afterAll(() => (process.env.KEEP_PTY ? undefined : rmSync(base, { recursive: true, force: true })));

/** `script`'s arguments that run the CLI with `args` on a pty of its own (each word quoted for its shell). */
function scriptArgs(args: string[]): string[] {
  const command = [process.execPath, join(repoRoot, "bin", "handoff.cjs"), ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  return ["-q", "-e", "-c", command, "/dev/null"];
}

/** The CLI's environment on the pty: plain text, a terminal that knows no escapes. */
const ptyEnv = () => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", ...env, NO_COLOR: "1", TERM: "dumb" });

/** Runs the CLI with stdout and stderr on a pty; returns what the terminal received. */
function onPty(args: string[]): string {
  const run = spawnSync("script", scriptArgs(args), {
    cwd: repo,
    env: ptyEnv(),
    encoding: "utf8",
    input: "",
    timeout: 60_000,
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  return run.stdout;
}

/** Raw controls in what a terminal received; the line discipline's own CR before each LF is not one. */
function rawControls(text: string): number {
  const body = text.replaceAll("\r\n", "\n");
  return [...body].filter((ch) => ALL_HOSTILE.includes(ch)).length;
}

describe("hostile manifest strings on a terminal", () => {
  it("the fixture is hostile: rendered unescaped it holds ESC, BEL, OSC 52 and bidi controls", () => {
    const check = validateKernelValue(JSON.parse(readFileSync(join(repo, "hostile.json"), "utf8")));
    expect(check.issues).toEqual([]);
    const manifest = check.manifest!;
    const raw = renderKernelMarkdown(manifest, "hostile.json");
    expect(rawControls(raw)).toBeGreaterThan(50);
    expect(raw).toContain("\u001b]52;c;");
    expect(raw).toContain("\u202e");
  });

  it("handoff render prints 0 raw control characters to a pty", () => {
    const out = onPty(["render", "hostile.json"]);
    expect(out).toContain("\\u001b]52;c;");
    expect(rawControls(out)).toBe(0);
  });

  it("handoff context prints 0 raw control characters to a pty", () => {
    const out = onPty(["context", "hostile.json"]);
    expect(out).toContain("# Notes slow down\\u001b]0;pwned");
    expect(rawControls(out)).toBe(0);
  });

  it("--out and --json stay exact", async () => {
    const rendered = await runCli(["render", "hostile.json", "--out", "hostile.md"], { cwd: repo, env });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(readFileSync(join(repo, "hostile.md"), "utf8")).toContain("\u001b]52;c;");
    const json = await runCli(["render", "hostile.json", "--json"], { cwd: repo, env });
    expect((JSON.parse(json.stdout) as { markdown: string }).markdown).toContain(HOSTILE);
    const context = await runCli(["context", "hostile.json", "--json"], { cwd: repo, env });
    expect(JSON.stringify(JSON.parse(context.stdout))).toContain(JSON.stringify(FILE_TEXT).slice(1, -1));
  });
});

/**
 * Runs the CLI on a pty and types `answer` once `prompt` has appeared (so the line discipline's echo
 * is already off: typing earlier would be echoed by the terminal, not by us). Returns what the
 * terminal received and the exit code. The process group is killed if it outlives the bound.
 */
async function typeAtPrompt(args: string[], prompt: string, answer: string): Promise<{ screen: string; code: number | null }> {
  const child = spawn("script", scriptArgs(args), {
    cwd: repo,
    env: ptyEnv(),
    detached: true,
  });
  let screen = "";
  let typed = false;
  const bound = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 60_000);
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    screen += text;
    if (!typed && screen.includes(prompt)) {
      typed = true;
      child.stdin.write(answer);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(bound);
  return { screen, code };
}

describe("the no-echo prompt on a terminal", () => {
  const key = "k".repeat(43);
  const url = `http://127.0.0.1:9/h/AAAAAAAAAAAAAAAAAAAAAA#${key}`;

  it("resume --paste reads the link without showing it, and goes on with it", async () => {
    const { screen, code } = await typeAtPrompt(["resume", "--paste"], "Paste the share URL", `${url}\r`);
    expect(screen).toContain("Paste the share URL (it is not shown), then Enter: ");
    expect(screen).not.toContain(key);
    // The link was read: the command went on to fetch it (nothing listens on port 9) and failed there.
    expect(code).not.toBe(0);
    expect(screen).not.toMatch(/not one http\(s\) share URL|cancelled/);
  });

  it("Ctrl-C at the prompt cancels with a usage error and reads nothing", async () => {
    const { screen, code } = await typeAtPrompt(["resume", "--paste"], "Paste the share URL", `${key}\u0003`);
    expect(screen).toMatch(/--paste: cancelled; nothing was read/);
    expect(screen).not.toContain(key);
    expect(code).toBe(2);
  });
});
