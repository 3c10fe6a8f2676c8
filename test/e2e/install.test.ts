import { readdirSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { type TestContext, afterAll, beforeAll, describe, expect, it } from "vitest";
import { testNode } from "../../scripts/test-nodes.js";
import type { LocalServer } from "../../scripts/local-server.js";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { repoRoot, runProgram } from "../helpers/cli.js";
import { installedUserEnv, installPackedCli } from "../helpers/installed-cli.js";
import { json, startServer } from "./hosts.js";

// The package as a user gets it: `npm pack` of this project, installed from the tarball into a
// prefix of its own, and the installed `handoff` (found on PATH, not run from this checkout) used
// in a git repository outside the project, against the real worker under `wrangler dev`; under
// the Node that runs the tests and under each other tested version (scripts/test-nodes.js).

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { name: string; version: string; files: string[] };
const BODY = `# Ship the installer

## Current state
The tarball installs into any prefix; the installed CLI needs nothing from the clone.

## Next steps
- try it on the second host
`;

let base: string;
let server: LocalServer | undefined;
let prefix: string;

/** A user of the installed CLI: their own HOME, store and config; the prefix's bin first on PATH, then the Node under test. */
function user(name: string, PATH: string, extraEnv: Record<string, string> = {}) {
  const dir = join(base, name);
  const env = { ...installedUserEnv(dir, join(prefix, "bin"), extraEnv), PATH };
  const repo = makeRepo(join(dir, "repo"), { "README.md": "# Elsewhere\n" });
  return (args: string[], input?: string) => runProgram("handoff", args, { cwd: repo, env, ...(input === undefined ? {} : { input }) });
}

beforeAll(async () => {
  base = tempDir("handoff-e2e-install-");
  prefix = dirname(await installPackedCli(base));
  server = await startServer(join(base, "server-state"));
});

afterAll(async () => {
  await server?.stop();
});

describe("the packed CLI, installed from its tarball", () => {
  it("holds what the CLI runs (the launcher, one bundle per command, create's rare paths in one more, the vendored libraries, the help module, the skill), its licence and notices, and its runtime packages bundled", () => {
    const installedRoot = join(prefix, "lib", "node_modules", pkg.name);
    const top = readdirSync(installedRoot).sort();
    // docs/: what help and error messages point to ("See docs/cli.md").
    expect(top).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "bin", "dist", "docs", "instructions", "node_modules", "package.json", "plugin"]);
    // bundleDependencies: installed from the tarball itself (offline), for npm audit and licence tools; the CLI never loads them.
    expect(readdirSync(join(installedRoot, "node_modules"))).toEqual(expect.arrayContaining(["zod", "yaml", "@modelcontextprotocol", "ajv"]));
    expect(readdirSync(join(installedRoot, "docs"))).toEqual(expect.arrayContaining(["cli.md", "storage.md", "agents.md", "conformance.md"]));
    // The plugin folder ships its skill only: manifests and hooks are the plugin install's, not npm's.
    expect(readdirSync(join(installedRoot, "plugin"))).toEqual(["skills"]);
    expect(readdirSync(join(installedRoot, "bin"))).toEqual(["handoff.cjs"]);
    const dist = readdirSync(join(installedRoot, "dist")).sort();
    expect(dist).toEqual(["THIRD-PARTY-NOTICES.md", "commands", "guard.cjs", "help.cjs", "paths", "vendor"]);
    // create's rare paths (--publish, --format, ...) run their own bundle (scripts/build-cli.js, RARE_PATHS).
    expect(readdirSync(join(installedRoot, "dist", "paths"))).toEqual(["create-full.cjs"]);
    expect(readdirSync(join(installedRoot, "dist", "vendor")).sort()).toEqual(["yaml.cjs", "zod-mini.cjs", "zod.cjs"]);
    const bundles = readdirSync(join(installedRoot, "dist", "commands")).sort();
    expect(bundles).toEqual(readdirSync(join(repoRoot, "dist", "commands")).sort());
    expect(bundles).toContain("create.cjs");
    expect(bundles.every((name) => name.endsWith(".cjs"))).toBe(true);
  });
});

/** The Nodes the installed CLI runs under: this one, and each other tested version this machine could install. */
const NODES: [string, { node: string } | { reason: string }][] = [
  [`Node ${process.versions.node} (running the tests)`, { node: process.execPath }],
  ...[22, 24]
    .filter((major) => major !== Number(process.versions.node.split(".")[0]))
    .map((major) => {
      const found = testNode(major);
      return [`Node ${"version" in found ? found.version : major}`, found] as [string, { node: string } | { reason: string }];
    }),
];

describe.each(NODES)("the installed CLI under %s", (label, found) => {
  const tag = label.replace(/\W+/g, "-");
  /** PATH for a user of the installed CLI: the prefix's bin, then this Node, then the rest. */
  const userPath = () => [join(prefix, "bin"), dirname((found as { node: string }).node), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter);
  const needNode = (ctx: TestContext) => {
    if ("reason" in found) ctx.skip(`no ${label} here: ${found.reason}`);
  };

  it("runs under this Node", async (ctx) => {
    needNode(ctx);
    const run = await runProgram("node", ["--version"], { cwd: base, env: { PATH: userPath() } });
    expect(run.stdout.trim()).toBe(`v${label.match(/Node ([\d.]+)/)![1]}`);
  });

  it("prints the same help as the checkout's CLI (whose help the golden tests pin)", async (ctx) => {
    needNode(ctx);
    for (const args of [["--help"], ["create", "--help"], ["resume", "--help"], ["guard", "--help"]]) {
      const installed = await runProgram("handoff", args, { cwd: base, env: { PATH: userPath(), HOME: base } });
      const checkout = await runProgram(process.execPath, [join(repoRoot, "bin", "handoff.cjs"), ...args], { cwd: base, env: { HOME: base } });
      expect({ args, code: installed.code, stdout: installed.stdout }).toEqual({ args, code: checkout.code, stdout: checkout.stdout });
    }
  });

  it("answers --version with the package's version from any folder", async (ctx) => {
    needNode(ctx);
    const run = await runProgram("handoff", ["--version"], { cwd: base, env: { PATH: userPath(), HOME: base } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  it("installs its skill and runs its guard from the installed package", async (ctx) => {
    needNode(ctx);
    const env = { PATH: userPath(), HOME: base };
    const skills = join(base, `installed-skills-${tag}`);
    const installed = await runProgram("handoff", ["install-skill", "--dir", skills, "--json"], { cwd: base, env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(readFileSync(join(skills, "handoff", "SKILL.md"), "utf8")).toBe(readFileSync(join(repoRoot, "plugin", "skills", "handoff", "SKILL.md"), "utf8"));
    const guard = await runProgram("handoff", ["guard"], { cwd: base, env, input: JSON.stringify({ tool_name: "Read", tool_input: { file_path: join(base, "x") }, cwd: base }) });
    expect(guard.code, guard.stderr).toBe(0);
  });

  it("create, publish on one host, resume on another, from a repository outside the project", async (ctx) => {
    needNode(ctx);
    const a = user(`a-${tag}`, userPath(), { HANDOFF_SERVER: server!.url });
    const b = user(`b-${tag}`, userPath());

    const created = await a(["create", "--title", "Ship the installer", "--json"], BODY);
    expect(created.code, created.stderr).toBe(0);
    const { path } = json<{ path: string }>(created);
    expect(path.startsWith(join(base, `a-${tag}`, "handoffs"))).toBe(true);

    const published = await a(["publish", path, "--json"]);
    expect(published.code, published.stderr).toBe(0);
    const { url } = json<{ url: string }>(published);
    expect(url.startsWith(`${server!.url}/h/`)).toBe(true);

    const resumed = await b(["resume", url, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const orientation = json<{ body: string }>(resumed);
    expect(orientation.body).toContain("The tarball installs into any prefix");
    expect(readFileSync(path, "utf8").endsWith(orientation.body)).toBe(true);
  });
});
