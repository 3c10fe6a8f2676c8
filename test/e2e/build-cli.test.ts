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

/**
 * The dist/ files one run of `handoff ...args` loaded, as paths under dist/, in order: those the
 * launcher's cached loader compiled (it names each under NODE_DEBUG=handoff), then any that Node's
 * own loader did (require.cache).
 */
async function loadedFiles(args: string[]): Promise<string[]> {
  const run = await runProgram(process.execPath, ["-r", preload, join(repoRoot, "bin", "handoff.cjs"), ...args], {
    cwd: repo,
    env: { HOME: base, HANDOFF_ROOT: store, NODE_DEBUG: "handoff" },
  });
  // 1: nothing found (resume), 2: usage (the typo); an operational failure (3) is a broken run.
  expect(run.code, run.stderr).toBeLessThanOrEqual(2);
  const listed = /LOADED (\[.*\])/.exec(run.stderr)?.[1];
  expect(listed, run.stderr).toBeDefined();
  const cached = [...run.stderr.matchAll(/^HANDOFF \d+: code cache (?:hit|miss|rejected) (.*)$/gm)].map((match) => match[1]!);
  const dist = join(repoRoot, "dist");
  return [...new Set([...cached, ...(JSON.parse(listed!) as string[])])].filter((file) => file.startsWith(dist)).map((file) => file.slice(dist.length + 1));
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

/** This Node, and Node 22 and 24 as scripts/test-nodes.js installs them (a test of one that is not there is skipped, with why). */
const nodes: { name: string; node: string; version: string }[] = [{ name: `this Node (${process.version})`, node: process.execPath, version: process.version }];
const missingNodes: string[] = [];
for (const major of [22, 24]) {
  if (process.version.startsWith(`v${major}.`)) continue;
  const tested = testNode(major);
  if ("node" in tested) nodes.push({ name: `Node ${major}`, node: tested.node, version: `v${tested.version}` });
  else missingNodes.push(tested.reason);
}
/** Whether `version` (v22.1.0, ...) has module.enableCompileCache. */
const hasCompileCache = (version: string) => {
  const [major, minor] = version.slice(1).split(".").map(Number);
  return major! > 22 || (major === 22 && minor! >= 1);
};

describe("the compile cache", () => {
  // A command's bundles: V8's code cache, kept by the launcher's loader (node:vm) in the user's cache folder.
  const cacheRoot = (home: string) => join(home, ".cache", "handoff", "compile-cache");
  const codeCache = (home: string, version: string) => join(cacheRoot(home), `v8-${version}-${process.arch}`);
  const launch = (launcher: string, args: string[], home: string, env: Record<string, string> = {}, node = process.execPath) =>
    runProgram(node, [launcher, ...args], { cwd: repo, env: { HOME: home, HANDOFF_ROOT: store, NODE_DEBUG: "handoff", ...env } });
  const listIn = (home: string, env: Record<string, string> = {}, node = process.execPath) => launch(join(repoRoot, "bin", "handoff.cjs"), ["list", "--json"], home, env, node);
  /** What the launcher's loader said of each file it compiled: hit (cached code used), miss (none yet), rejected (V8 refused it). */
  const cacheUse = (stderr: string) => Object.fromEntries([...stderr.matchAll(/^HANDOFF \d+: code cache (hit|miss|rejected) (.*)$/gm)].map(([, use, file]) => [relative(repoRoot, file!), use]));
  for (const reason of missingNodes) it.skip(`is kept under every tested Node: ${reason}`, () => {});

  it.each(nodes)("is kept under $name by the launcher, in a private folder, and used on the next run", async ({ node, version }) => {
    const home = join(base, `home-${version}`);
    mkdirSync(home);
    const first = await listIn(home, {}, node);
    expect(first.code, first.stderr).toBe(0);
    expect(cacheUse(first.stderr)).toEqual({ "dist/commands/list.cjs": "miss" });
    for (const dir of [join(home, ".cache", "handoff"), cacheRoot(home), codeCache(home, version)]) expect(statSync(dir).mode & 0o777).toBe(0o700);
    // One folder per Node release and CPU, one private file per bundle.
    expect(readdirSync(cacheRoot(home))).toEqual([`v8-${version}-${process.arch}`]);
    const [entry, ...more] = readdirSync(codeCache(home, version));
    expect(more).toEqual([]);
    expect(statSync(join(codeCache(home, version), entry!)).mode & 0o777).toBe(0o600);
    const second = await listIn(home, {}, node);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(cacheUse(second.stderr)).toEqual({ "dist/commands/list.cjs": "hit" });
  });

  it("is written again when V8 rejects it", async () => {
    const home = join(base, "home-rejected");
    mkdirSync(home);
    expect(cacheUse((await listIn(home)).stderr)).toEqual({ "dist/commands/list.cjs": "miss" });
    const [entry] = readdirSync(codeCache(home, process.version));
    writeFileSync(join(codeCache(home, process.version), entry!), "not V8's code cache");
    const rejected = await listIn(home);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(cacheUse(rejected.stderr)).toEqual({ "dist/commands/list.cjs": "rejected" });
    expect(cacheUse((await listIn(home)).stderr)).toEqual({ "dist/commands/list.cjs": "hit" });
  });

  // A package of the launcher and two small files of its own: what the loader does with any bundle.
  describe("on a bundle of its own", () => {
    const tree = join(base, "tree");
    const launcher = join(tree, "bin", "handoff.cjs");
    const boom = join(tree, "dist", "commands", "boom.cjs");
    beforeAll(() => {
      mkdirSync(join(tree, "bin"), { recursive: true });
      mkdirSync(join(tree, "dist", "commands"), { recursive: true });
      mkdirSync(join(tree, "dist", "vendor"), { recursive: true });
      writeFileSync(launcher, readFileSync(join(repoRoot, "bin", "handoff.cjs")));
      writeFileSync(boom, '"use strict";\nconst lib = require("../vendor/lib.cjs");\nexports.runProcess = () => {\n  lib.fail("first");\n};\n');
      writeFileSync(join(tree, "dist", "vendor", "lib.cjs"), '"use strict";\nexports.fail = function fail(name) {\n  throw new Error("boom: " + name);\n};\n');
    });
    const boomIn = (home: string) => launch(launcher, ["boom"], home);

    it("loads what a bundle requires under dist/ through the cache too, and its errors name the files and lines", async () => {
      const home = join(base, "home-tree");
      mkdirSync(home);
      for (const use of ["miss", "hit"]) {
        const run = await boomIn(home);
        expect(run.code).toBe(1);
        expect(cacheUse(run.stderr)).toEqual({ [relative(repoRoot, boom)]: use, [relative(repoRoot, join(tree, "dist", "vendor", "lib.cjs"))]: use });
        expect(run.stderr).toContain("Error: boom: first");
        expect(run.stderr).toContain(`at Object.fail (${join(tree, "dist", "vendor", "lib.cjs")}:3:9)`);
        expect(run.stderr).toMatch(new RegExp(`at exports\\.runProcess \\(${boom.replace(/[.]/g, "\\.")}:4:\\d+\\)`));
      }
    });

    it("never pairs a rebuilt file with the code cached for the old one, even of the same length", async () => {
      const home = join(base, "home-rebuilt");
      mkdirSync(home);
      expect(cacheUse((await boomIn(home)).stderr)[relative(repoRoot, boom)]).toBe("miss");
      const before = readdirSync(codeCache(home, process.version)).sort();
      const source = readFileSync(boom, "utf8");
      writeFileSync(boom, source.replace('"first"', '"other"'));
      const rebuilt = await boomIn(home);
      expect(cacheUse(rebuilt.stderr)[relative(repoRoot, boom)]).toBe("miss");
      expect(rebuilt.stderr).toContain("Error: boom: other");
      // The old file's entry went when the new one was written.
      const after = readdirSync(codeCache(home, process.version)).sort();
      expect(after).toHaveLength(before.length);
      expect(after).not.toEqual(before);
      writeFileSync(boom, source);
    });
  });

  it.each(nodes)("is not used under $name in a folder others can write to, nor with NODE_DISABLE_COMPILE_CACHE", async ({ node, version }) => {
    const open = join(base, `home-open-${version}`);
    mkdirSync(codeCache(open, version), { recursive: true });
    chmodSync(codeCache(open, version), 0o777);
    const opened = await listIn(open, {}, node);
    expect(opened.code, opened.stderr).toBe(0);
    expect(cacheUse(opened.stderr)).toEqual({});
    expect(readdirSync(codeCache(open, version))).toEqual([]);
    const off = join(base, `home-off-${version}`);
    mkdirSync(off);
    const disabled = await listIn(off, { NODE_DISABLE_COMPILE_CACHE: "1" }, node);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(cacheUse(disabled.stderr)).toEqual({});
    expect(existsSync(join(off, ".cache"))).toBe(false);
  });

  // Help and the guard are small: Node's own compile cache keeps them where Node has one (22.1 and newer), none on Node 20.
  const helpIn = (home: string, node: string) => launch(join(repoRoot, "bin", "handoff.cjs"), ["--help"], home, { NODE_DEBUG_NATIVE: "COMPILE_CACHE" }, node);
  /** What Node's compile cache said of help.cjs: "accepted" when the cached code was used, "not initialized" when it was not there. */
  const nodeCacheUse = (stderr: string) => /cache for (?:CommonJS )?\S*help\.cjs (was accepted|was not initialized)/.exec(stderr)?.[1];
  it.each(nodes.map((entry) => ({ ...entry, has: hasCompileCache(entry.version) ? "Node's own" : "none" })))("for help under $name is $has", async ({ node, version }) => {
    const home = join(base, `home-help-${version}`);
    mkdirSync(home);
    const first = await helpIn(home, node);
    expect(first.code, first.stderr).toBe(0);
    expect(cacheUse(first.stderr)).toEqual({});
    if (!hasCompileCache(version)) {
      expect(existsSync(join(home, ".cache"))).toBe(false);
      return;
    }
    expect(nodeCacheUse(first.stderr)).toBe("was not initialized");
    expect(statSync(cacheRoot(home)).mode & 0o777).toBe(0o700);
    // Node's own layout, one folder per Node release.
    expect(readdirSync(cacheRoot(home))).toEqual([expect.stringContaining(`${version}-${process.arch}`)]);
    expect(nodeCacheUse((await helpIn(home, node)).stderr)).toBe("was accepted");
  });
});
