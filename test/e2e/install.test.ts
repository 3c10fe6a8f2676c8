import { readdirSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { repoRoot, runProgram } from "../helpers/cli.js";
import { installedUserEnv, installPackedCli } from "../helpers/installed-cli.js";
import { json, startServer } from "./hosts.js";

// The package as a user gets it: `npm pack` of this project, installed from the tarball into a
// prefix of its own, and the installed `handoff` (found on PATH, not run from this checkout) used
// in a git repository outside the project, against the real worker under `wrangler dev`.

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

/** A user of the installed CLI: their own HOME, store and config; only the prefix's bin on PATH first. */
function user(name: string, extraEnv: Record<string, string> = {}) {
  const dir = join(base, name);
  const env = installedUserEnv(dir, join(prefix, "bin"), extraEnv);
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
  it("holds only what the CLI runs: the launcher, the bundles and chunks, the help module, the skill, no dependencies", () => {
    const installedRoot = join(prefix, "lib", "node_modules", pkg.name);
    const top = readdirSync(installedRoot).sort();
    expect(top).toEqual(["README.md", "bin", "dist", "instructions", "package.json", "plugin"]);
    // The plugin folder ships its skill only: manifests and hooks are the plugin install's, not npm's.
    expect(readdirSync(join(installedRoot, "plugin"))).toEqual(["skills"]);
    expect(readdirSync(join(installedRoot, "bin"))).toEqual(["handoff.cjs"]);
    const dist = readdirSync(join(installedRoot, "dist")).sort();
    expect(dist).toEqual(["chunks", "cli.js", "guard.cjs", "help.cjs"]);
    expect(readdirSync(join(installedRoot, "dist", "chunks")).every((name) => name.endsWith(".js"))).toBe(true);
  });

  it("answers --version with the package's version from any folder", async () => {
    const run = await runProgram("handoff", ["--version"], { cwd: base, env: { PATH: `${join(prefix, "bin")}${delimiter}${process.env.PATH}`, HOME: base } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  it("installs its skill and runs its guard from the installed package", async () => {
    const env = { PATH: `${join(prefix, "bin")}${delimiter}${process.env.PATH}`, HOME: base };
    const skills = join(base, "installed-skills");
    const installed = await runProgram("handoff", ["install-skill", "--dir", skills, "--json"], { cwd: base, env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(readFileSync(join(skills, "handoff", "SKILL.md"), "utf8")).toBe(readFileSync(join(repoRoot, "plugin", "skills", "handoff", "SKILL.md"), "utf8"));
    const guard = await runProgram("handoff", ["guard"], { cwd: base, env, input: JSON.stringify({ tool_name: "Read", tool_input: { file_path: join(base, "x") }, cwd: base }) });
    expect(guard.code, guard.stderr).toBe(0);
  });

  it("create, publish on one host, resume on another, from a repository outside the project", async () => {
    const a = user("a", { HANDOFF_SERVER: server!.url });
    const b = user("b");

    const created = await a(["create", "--title", "Ship the installer", "--json"], BODY);
    expect(created.code, created.stderr).toBe(0);
    const { path } = json<{ path: string }>(created);
    expect(path.startsWith(join(base, "a", "handoffs"))).toBe(true);

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
