import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deployTarget, deployedUrl, parseArgs, plan } from "../../scripts/deploy.js";
import { repoRoot, runProgram } from "../helpers/cli.js";

// `npm run deploy`: the dry run bundles the real wrangler.toml with the real wrangler, offline (no
// account, no network); a real deploy needs Cloudflare, which no test here can reach.

const home = mkdtempSync(join(tmpdir(), "handoff-deploy-home-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const deploy = (args: string[]) => runProgram(process.execPath, [join(repoRoot, "scripts", "deploy.js"), ...args], { cwd: repoRoot, env: { HOME: home } });
const config = readFileSync(join(repoRoot, "wrangler.toml"), "utf8");

describe("npm run deploy -- --dry-run", () => {
  it("bundles the real configuration with wrangler deploy --dry-run and prints the plan", async () => {
    const run = await deploy(["--dry-run"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("--dry-run: exiting now.");
    for (const binding of ["env.ACCESS (HandoffAccess)", "env.REGISTRY (HandoffRegistry)", "env.META", "env.BODIES (handoff-bodies)", "env.ASSETS"]) expect(run.stdout).toContain(binding);
    expect(run.stdout).toContain("A real deploy (npm run deploy) runs:");
    for (const step of plan(deployTarget(config))) expect(run.stdout).toContain(step);
  });

  it("refuses an unknown argument with exit 2", async () => {
    const run = await deploy(["--prod"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown argument "--prod"');
    expect(run.stderr).toContain("usage: npm run deploy [-- --dry-run]");
  });
});

describe("the deploy's inputs and outputs", () => {
  it("wrangler.toml needs no hand edit: the KV binding has no id, so wrangler finds or creates the namespace", () => {
    const kv = /\[\[kv_namespaces\]\]([^[]*)/.exec(config)?.[1] ?? "";
    expect(kv).toMatch(/binding = "META"/);
    expect(kv).not.toMatch(/\bid\s*=/);
    expect(deployTarget(config)).toEqual({ name: "handoff", bucket: "handoff-bodies" });
  });

  it("reads the Worker's URL from wrangler deploy's output", () => {
    expect(deployedUrl("Uploaded handoff (3.1 sec)\nDeployed handoff triggers (0.4 sec)\n  https://handoff.team-a.workers.dev\n  schedule: 17 * * * *")).toBe("https://handoff.team-a.workers.dev");
    expect(deployedUrl("no URL here")).toBeUndefined();
  });

  it("takes --dry-run and --help, nothing else", () => {
    expect(parseArgs([])).toEqual({ dryRun: false });
    expect(parseArgs(["--dry-run"])).toEqual({ dryRun: true });
    expect(parseArgs(["--help"])).toEqual({ help: true });
    expect(parseArgs(["--dry-run", "x"])).toEqual({ error: 'unknown argument "x"' });
  });
});
