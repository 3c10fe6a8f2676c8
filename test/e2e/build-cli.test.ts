import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../client/cli/registry.js";
import { testNode } from "../../scripts/test-nodes.js";
import { ensureBuilt, repoRoot, runProgram } from "../helpers/cli.js";

// What scripts/build-cli.js promises the launcher (issue 26): one bundle per command, each
// carrying its own command only, and the vendored libraries loaded only by a path that uses them.
// A command's modules are seen from inside the process: a preloaded script lists, at exit, every
// file Node loaded.

const base = realpathSync(mkdtempSync(join(tmpdir(), "handoff-build-cli-")));
const preload = join(base, "loaded.cjs");
const repo = join(base, "repo");
const store = join(base, "store");

beforeAll(async () => {
  await ensureBuilt();
  writeFileSync(preload, 'process.on("exit", () => process.stderr.write("\\nLOADED " + JSON.stringify(Object.keys(require.cache)) + "\\n"));\n');
  mkdirSync(repo);
  mkdirSync(store, { mode: 0o700 });
  execFileSync("git", ["init", "-q", repo]);
  writeFileSync(join(base, "body.md"), "# Retry path\n\nDecided to keep the retry path. Next: wire the backoff.\n");
}, 600_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const commandNames = COMMANDS.map((command) => command.spec.name);

/** The dist/ files one run of `handoff ...args` loaded, as paths under dist/. */
async function loadedFiles(args: string[]): Promise<string[]> {
  const run = await runProgram(process.execPath, ["-r", preload, join(repoRoot, "bin", "handoff.cjs"), ...args], { cwd: repo, env: { HOME: base, HANDOFF_ROOT: store } });
  // 1: nothing found (resume), 2: usage (the typo); an operational failure (3) is a broken run.
  expect(run.code, run.stderr).toBeLessThanOrEqual(2);
  const listed = /LOADED (\[.*\])/.exec(run.stderr)?.[1];
  expect(listed, run.stderr).toBeDefined();
  const dist = join(repoRoot, "dist");
  return (JSON.parse(listed!) as string[]).filter((file) => file.startsWith(dist)).map((file) => file.slice(dist.length + 1));
}

describe("the CLI's bundles", () => {
  it("are one per command the registry declares, and the vendored libraries", () => {
    expect(readdirSync(join(repoRoot, "dist", "commands")).sort()).toEqual(commandNames.map((name) => `${name}.cjs`).sort());
    expect(readdirSync(join(repoRoot, "dist", "vendor")).sort()).toEqual(["yaml.cjs", "zod-mini.cjs", "zod.cjs"]);
  });

  it("carry their own command's code and not another's", () => {
    const list = readFileSync(join(repoRoot, "dist", "commands", "list.cjs"), "utf8");
    const create = readFileSync(join(repoRoot, "dist", "commands", "create.cjs"), "utf8");
    expect(create).toContain("function createHandoff(");
    expect(list).not.toContain("function createHandoff(");
    expect(list).toContain("dist/commands/list.cjs runs 'handoff list'");
  });

  it("leave every command's code out of the help module, the hook command's too", () => {
    const help = readFileSync(join(repoRoot, "dist", "help.cjs"), "utf8");
    expect(help).not.toContain("function createHandoff(");
    expect(help).not.toContain("// client/hook/command.ts");
    expect(help).not.toContain("// client/commands/list/run.ts");
  });

  const common = [
    ["list --json", ["list", "--json"], ["commands/list.cjs"]],
    ["resume over an empty store", ["resume", "--json"], ["commands/resume.cjs"]],
    ["scan", ["scan", "../body.md"], ["commands/scan.cjs"]],
    // ce Markdown: no zod (orient's kernel schemas are built on first use), no yaml.
    ["create", ["create", "--body-file", "../body.md", "--title", "Retry path"], ["commands/create.cjs"]],
    // A typo runs create's bundle, whose CLI entry says it is not a command.
    ["an unknown command", ["lsit"], ["commands/create.cjs"]],
  ] as const;

  it.each(common)("%s loads its bundle and no yaml", async (_name, args, [bundle]) => {
    const loaded = await loadedFiles([...args]);
    expect(loaded[0]).toBe(bundle);
    expect(loaded).not.toContain("vendor/yaml.cjs");
  });

  // No command loads zod or yaml before a path of it needs them: lib/run-context.ts reads its HTTP
  // options from lib/call-options.ts, not from the API client, whose shared/api schemas are built
  // at import.
  it.each(common)("%s loads no vendored library", async (_name, args, expected) => {
    expect(await loadedFiles([...args])).toEqual(expected);
  });

  // The CLI's schemas are zod/mini; classic zod is the MCP server's alone.
  it("validate of a kernel manifest loads zod/mini, and neither classic zod nor yaml", async () => {
    const manifest = join(base, "manifest.json");
    writeFileSync(manifest, readFileSync(join(repoRoot, "test", "fixtures", "kernel", "example.yaml-skill-unification-2026-07-10.json")));
    expect((await loadedFiles(["validate", manifest])).sort()).toEqual(["commands/validate.cjs", "vendor/zod-mini.cjs"]);
  });
});

// Node 22 as scripts/test-nodes.js installs it for the installed-package tests.
const tested22 = testNode(22);

describe("the compile cache", () => {
  // The launcher keeps V8's code cache itself, on every Node version (Node 22's own keeps less).
  const ownCache = (home: string, version = process.version) => join(home, ".cache", "handoff", "compile-cache", `v8-${version}-${process.arch}`);
  const entries = (dir: string) => readdirSync(dir).map((name) => ({ name, ino: statSync(join(dir, name)).ino, mode: statSync(join(dir, name)).mode & 0o777 }));
  const listIn = (launcher: string, home: string, env: Record<string, string> = {}, node = process.execPath) =>
    runProgram(node, [launcher, "list", "--json"], { cwd: repo, env: { HOME: home, HANDOFF_ROOT: store, NODE_DEBUG: "handoff", ...env } });
  /** What NODE_DEBUG=handoff said of the bundle's cached code: hit, miss or rejected. */
  const cacheUse = (stderr: string) => /code cache (\w+) .*list\.cjs/.exec(stderr)?.[1];

  // Under this Node, and under Node 22 as scripts/test-nodes.js installs it (skipped where it is not).
  const nodes = [{ name: `this Node (${process.version})`, node: process.execPath, version: process.version }];
  if ("node" in tested22) nodes.push({ name: "Node 22", node: tested22.node, version: `v${tested22.version}` });
  if ("reason" in tested22) it.skip(`is kept under Node 22 too: ${tested22.reason}`, () => {});
  it.each(nodes)("is V8's code cache kept by the launcher under $name: private, and used on the next run", async ({ node, version }) => {
    const home = join(base, `home-${version}`);
    mkdirSync(home);
    const launcher = join(repoRoot, "bin", "handoff.cjs");
    const first = await listIn(launcher, home, {}, node);
    expect(first.code, first.stderr).toBe(0);
    expect(cacheUse(first.stderr)).toBe("miss");
    expect(statSync(join(home, ".cache", "handoff")).mode & 0o777).toBe(0o700);
    const dir = ownCache(home, version);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const written = entries(dir);
    // list's bundle, one file, private; nothing of the run's own data.
    expect(written).toHaveLength(1);
    expect(written[0]!.name).toMatch(/^[0-9a-z]+-[0-9a-z]+\.v8$/);
    expect(written[0]!.mode).toBe(0o600);
    const second = await listIn(launcher, home, {}, node);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(cacheUse(second.stderr)).toBe("hit");
    // Accepted, so not written again: a rejected entry is replaced (a new file, a new inode).
    expect(entries(dir)).toEqual(written);
  });

  it("replaces a damaged entry and a rebuilt file's, and the command runs the same", async () => {
    const home = join(base, "home-20-stale");
    mkdirSync(home);
    // A copy of the launcher and its bundles, so that one bundle can be rebuilt (changed) here.
    const copy = join(base, "copy");
    for (const part of ["bin", "dist"]) cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
    const launcher = join(copy, "bin", "handoff.cjs");
    const first = await listIn(launcher, home);
    expect(first.code, first.stderr).toBe(0);
    const dir = ownCache(home);
    const [entry] = entries(dir);
    writeFileSync(join(dir, entry!.name), "not V8's data");
    const damaged = await listIn(launcher, home);
    expect(damaged.code, damaged.stderr).toBe(0);
    expect(damaged.stdout).toBe(first.stdout);
    expect(cacheUse(damaged.stderr)).toBe("rejected");
    const [replaced] = entries(dir);
    expect(replaced!.name).toBe(entry!.name);
    expect(readFileSync(join(dir, replaced!.name), "utf8")).not.toBe("not V8's data");
    // The bundle rebuilt: its entry is a new one, and the old one is gone.
    const bundle = join(copy, "dist", "commands", "list.cjs");
    writeFileSync(bundle, `${readFileSync(bundle, "utf8")}\n// rebuilt\n`);
    const rebuilt = await listIn(launcher, home);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toBe(first.stdout);
    expect(cacheUse(rebuilt.stderr)).toBe("miss");
    expect(cacheUse((await listIn(launcher, home)).stderr)).toBe("hit");
    const after = entries(dir);
    expect(after).toHaveLength(1);
    expect(after[0]!.name).not.toBe(entry!.name);
  });

  it("is not used in a folder others can write to, nor with NODE_DISABLE_COMPILE_CACHE", async () => {
    const home = join(base, "home-20-open");
    mkdirSync(ownCache(home), { recursive: true });
    chmodSync(ownCache(home), 0o777);
    const launcher = join(repoRoot, "bin", "handoff.cjs");
    const open = await listIn(launcher, home);
    expect(open.code, open.stderr).toBe(0);
    expect(cacheUse(open.stderr)).toBeUndefined();
    expect(readdirSync(ownCache(home))).toEqual([]);
    const off = join(base, "home-20-off");
    mkdirSync(off);
    const disabled = await listIn(launcher, off, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(existsSync(join(off, ".cache", "handoff", "compile-cache", `v8-${process.version}-${process.arch}`))).toBe(false);
  });
});
