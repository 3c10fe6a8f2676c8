import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../client/cli/registry.js";
import { testNode } from "../../scripts/test-nodes.js";
import { bundledPackages, thirdPartyNotices } from "../../scripts/third-party-notices.js";
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

  // create's rare paths (RARE_PATHS in scripts/build-cli.js) live in dist/paths/create-full.cjs:
  // the common path compiles no publish client, kernel writer, transcript reader or changes capture.
  it("leave create's rare paths out of its bundle, and carry them whole in create-full.cjs", () => {
    const create = readFileSync(join(repoRoot, "dist", "commands", "create.cjs"), "utf8");
    const full = readFileSync(join(repoRoot, "dist", "paths", "create-full.cjs"), "utf8");
    for (const code of ["function publishDocument(", "function createKernelHandoff(", "function transcriptBody(", "function captureChanges(", "function assertMayAccess("]) {
      expect(create).not.toContain(code);
      expect(full).toContain(code);
    }
    expect(create).toContain("function createHandoff(");
  });

  // Each run ends in a usage error after the bundle is chosen: what is seen is which one ran.
  it.each([
    ["--publish", ["create", "--publish", "--local"]],
    ["--format", ["create", "--format", "kernel", "--keyword", "k"]],
    ["--format=VALUE", ["create", "--format=kernel", "--keyword", "k"]],
    ["--from-transcript", ["create", "--from-transcript", "t.jsonl", "--body-file", "../body.md"]],
    ["--with-changes", ["create", "--with-changes", "--format", "kernel"]],
  ])("create %s runs the full bundle", async (_word, args) => {
    expect(await loadedFiles(args)).toEqual(["commands/create.cjs", "paths/create-full.cjs"]);
  });

  // Kernel documents are validated by the validators generated from their zod schemas
  // (shared/kernel/schema-validators.ts, ajv's code): validate of kernel's manifest loads no vendored library.
  it("validate of a kernel manifest loads its bundle only: no zod, no yaml", async () => {
    const manifest = join(base, "manifest.json");
    writeFileSync(manifest, readFileSync(join(repoRoot, "test", "fixtures", "kernel", "example.yaml-skill-unification-2026-07-10.json")));
    expect(await loadedFiles(["validate", manifest])).toEqual(["commands/validate.cjs"]);
  });
});

describe("what the bundles carry", () => {
  const shipped = () =>
    ["commands", "paths", "vendor"]
      .flatMap((dir) => readdirSync(join(repoRoot, "dist", dir)).map((name) => join(repoRoot, "dist", dir, name)))
      .concat(["help.cjs", "guard.cjs"].map((name) => join(repoRoot, "dist", name)));

  it("make no source map and point at none", () => {
    const pointing = shipped().filter((file) => readFileSync(file, "utf8").includes("sourceMappingURL"));
    expect(pointing).toEqual([]);
    expect(readdirSync(join(repoRoot, "dist"), { recursive: true }).filter((name) => String(name).endsWith(".map"))).toEqual([]);
  });

  // dist/metafile.json is esbuild's own account of every input of every file the build wrote.
  it("have a notice, with the package's own licence, for every package inlined into them", () => {
    const metafile = JSON.parse(readFileSync(join(repoRoot, "dist", "metafile.json"), "utf8"));
    const packages = bundledPackages(metafile);
    expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining(["zod", "yaml", "@modelcontextprotocol/sdk", "ajv"]));
    const notices = readFileSync(join(repoRoot, "dist", "THIRD-PARTY-NOTICES.md"), "utf8");
    for (const { name, folder } of packages) {
      const version = JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")).version;
      expect(notices).toContain(`## ${name} ${version}\n`);
      const licence = readdirSync(join(repoRoot, folder)).find((file) => /^licen[cs]e/i.test(file))!;
      expect(notices).toContain(readFileSync(join(repoRoot, folder, licence), "utf8").trim());
    }
    // Every shipped file's inputs are in the metafile: a bundle built outside it would carry unnoticed code.
    expect(Object.keys(metafile.outputs).sort()).toEqual(
      shipped()
        .map((file) => relative(repoRoot, file))
        .sort(),
    );
  });

  it("stop the build when an inlined package has no licence file", () => {
    const tree = join(base, "no-licence");
    mkdirSync(join(tree, "node_modules", "quiet"), { recursive: true });
    writeFileSync(join(tree, "node_modules", "quiet", "package.json"), '{ "name": "quiet", "version": "1.0.0" }');
    writeFileSync(join(tree, "node_modules", "quiet", "index.js"), "module.exports = 1;");
    const metafile = { outputs: { "dist/x.cjs": { inputs: { "node_modules/quiet/index.js": {} } } } };
    expect(bundledPackages(metafile)).toEqual([{ name: "quiet", folder: "node_modules/quiet" }]);
    expect(() => thirdPartyNotices(bundledPackages(metafile), tree)).toThrow(/node_modules\/quiet is bundled into dist\/ but has no licence file/);
  });

  it("are packed with the licence, the notices and the changelog, and the runtime packages bundled (npm pack --dry-run)", async () => {
    const packed = await runProgram("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--offline", "--loglevel", "error"], { cwd: repoRoot, env: { HOME: join(base, "npm-home") } });
    expect(packed.code, packed.stderr).toBe(0);
    const [entry] = JSON.parse(packed.stdout) as { files: { path: string }[]; bundled: string[] }[];
    const files = entry!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "dist/THIRD-PARTY-NOTICES.md", "CHANGELOG.md"]));
    expect(files).not.toContain("dist/metafile.json");
    // bundleDependencies: what npm audit and licence tools read in the installed tree.
    expect(entry!.bundled).toEqual(expect.arrayContaining(["zod", "yaml", "@modelcontextprotocol/sdk", "ajv"]));
  });
});

// Node 22 as scripts/test-nodes.js installs it for the installed-package tests.
const tested22 = testNode(22);
/** Whether `version` (v22.1.0, ...) has module.enableCompileCache. */
const hasCompileCache = (version: string) => {
  const [major, minor] = version.slice(1).split(".").map(Number);
  return major! > 22 || (major === 22 && minor! >= 1);
};

describe("the compile cache", () => {
  // Node's own compile cache (module.enableCompileCache), enabled by the launcher in the user's cache folder.
  const cacheDir = (home: string) => join(home, ".cache", "handoff", "compile-cache");
  const listIn = (home: string, env: Record<string, string> = {}, node = process.execPath) =>
    runProgram(node, [join(repoRoot, "bin", "handoff.cjs"), "list", "--json"], { cwd: repo, env: { HOME: home, HANDOFF_ROOT: store, NODE_DEBUG_NATIVE: "COMPILE_CACHE", ...env } });
  /** What Node's compile cache said of list.cjs: "accepted" when the cached code was used, "initializing" when it was not there. */
  const cacheUse = (stderr: string) => /cache for \S*list\.cjs (was accepted|was not initialized)/.exec(stderr)?.[1];

  // Under this Node where it has one, and under Node 22 as scripts/test-nodes.js installs it (skipped where it is not).
  const nodes = [{ name: `this Node (${process.version})`, node: process.execPath, version: process.version }];
  if ("node" in tested22) nodes.push({ name: "Node 22", node: tested22.node, version: `v${tested22.version}` });
  if ("reason" in tested22) it.skip(`is kept under Node 22 too: ${tested22.reason}`, () => {});
  const withCache = nodes.filter(({ version }) => hasCompileCache(version));
  const withoutCache = nodes.filter(({ version }) => !hasCompileCache(version));

  it.each(withCache)("is Node's own under $name: in a private folder, and used on the next run", async ({ node, version }) => {
    const home = join(base, `home-${version}`);
    mkdirSync(home);
    const first = await listIn(home, {}, node);
    expect(first.code, first.stderr).toBe(0);
    expect(cacheUse(first.stderr)).toBe("was not initialized");
    expect(statSync(join(home, ".cache", "handoff")).mode & 0o777).toBe(0o700);
    expect(statSync(cacheDir(home)).mode & 0o777).toBe(0o700);
    // One folder per Node release, Node's own layout.
    expect(readdirSync(cacheDir(home))).toEqual([expect.stringContaining(`${version}-${process.arch}`)]);
    const second = await listIn(home, {}, node);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(cacheUse(second.stderr)).toBe("was accepted");
  });

  it.each(withoutCache)("is not there under $name, which has no module.enableCompileCache: nothing is written", async ({ node, version }) => {
    const home = join(base, `home-${version}`);
    mkdirSync(home);
    const run = await listIn(home, {}, node);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(home, ".cache"))).toBe(false);
  });

  it.each(withCache)("is not used under $name in a folder others can write to, nor with NODE_DISABLE_COMPILE_CACHE", async ({ node, version }) => {
    const open = join(base, `home-open-${version}`);
    mkdirSync(cacheDir(open), { recursive: true });
    chmodSync(cacheDir(open), 0o777);
    const opened = await listIn(open, {}, node);
    expect(opened.code, opened.stderr).toBe(0);
    expect(cacheUse(opened.stderr)).toBeUndefined();
    expect(readdirSync(cacheDir(open))).toEqual([]);
    const off = join(base, `home-off-${version}`);
    mkdirSync(off);
    const disabled = await listIn(off, { NODE_DISABLE_COMPILE_CACHE: "1" }, node);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(cacheUse(disabled.stderr)).toBeUndefined();
    expect(existsSync(join(off, ".cache"))).toBe(false);
  });
});
