import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeChanges } from "../../shared/changes/bundle.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { type McpSession, startMcp } from "../helpers/mcp-client.js";
import { GIT_ENV, makeRepo, tempDir, writeSealedManifest } from "./git-repo.js";

// --with-changes (CLI) and with_changes (MCP) under an active sealed manifest that forbids
// secrets/**: the guard's own decision is asked for every dirty file, and a forbidden one is left
// out of the bundle and named, its contents never captured.

const base = tempDir("handoff-with-changes-sealed-");
const home = join(base, "home");
const env = () => ({ ...GIT_ENV, HOME: home, TMPDIR: base, HANDOFF_ROOT: join(base, "store") });
const MARK = "region-eu-west-canary";
const BODY = "# Retry path\n\n## Objective\nRetry on 503.\n\n## Next steps\n- a backoff test\n";
let repo = "";
let mcp: McpSession | undefined;

beforeAll(async () => {
  await ensureBuilt();
  repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n", "secrets/prod.env": "region=eu\n" });
  writeSealedManifest(repo, "sealed.json");
  const armed = await runCli(["context", "sealed.json", "--activate"], { cwd: repo, env: env() });
  expect(armed.code, armed.stderr).toBe(0);
  writeFileSync(join(repo, "README.md"), "# Demo\n\nRetries: backoff.\n");
  writeFileSync(join(repo, "secrets", "prod.env"), `region=${MARK}\n`);
  writeFileSync(join(repo, "secrets", "staging.env"), `region=${MARK}-staging\n`);
  mcp = await startMcp({ cwd: repo, env: env(), name: "handoff-with-changes-sealed" });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  rmSync(base, { recursive: true, force: true });
}, 30_000);

interface Created {
  path: string;
  changes: { path: string; tracked: { path: string }[]; untracked: { path: string }[]; left_out: { path: string; reason: string }[] };
  warnings: { message: string }[];
}

/** The bundle written beside a handoff: what would travel. */
function bundleOf(created: Created) {
  const bytes = readFileSync(created.changes.path);
  expect(bytes.includes(Buffer.from(MARK))).toBe(false);
  const bundle = decodeChanges(bytes);
  if (!bundle.ok) throw bundle.error;
  return bundle.value;
}

function expectForbiddenLeftOut(created: Created): void {
  const forbidden = created.changes.left_out.filter((l) => l.path.startsWith("secrets/"));
  expect(forbidden.map((l) => l.path).sort()).toEqual(["secrets/prod.env", "secrets/staging.env"]);
  for (const l of forbidden) expect(l.reason).toBe("forbidden by the active manifest sealed.json: left out, never read or sent");
  const bundle = bundleOf(created);
  expect(bundle.manifest.tracked.map((t) => t.path)).toEqual(["README.md"]);
  expect(bundle.manifest.files.some((f) => f.path.startsWith("secrets/"))).toBe(false);
}

describe("--with-changes under a sealed manifest", () => {
  it("CLI create: forbidden files are left out and named, the rest travels", async () => {
    const run = await runCli(["create", "--title", "Retry path", "--with-changes", "--json"], { cwd: repo, env: env(), input: BODY });
    expect(run.code, run.stderr).toBe(0);
    const created = JSON.parse(run.stdout) as Created;
    expectForbiddenLeftOut(created);
    expect(created.warnings.map((w) => w.message)).toContain("--with-changes left secrets/prod.env out: forbidden by the active manifest sealed.json: left out, never read or sent");
  });

  it("MCP create with_changes: the same decision", async () => {
    const result = await mcp!.call("create", { body: BODY, title: "Retry path over MCP", with_changes: true });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    expectForbiddenLeftOut(result.structuredContent as unknown as Created);
  });
});
