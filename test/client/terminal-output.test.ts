import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newShareKey } from "../../shared/crypto/key.js";
import { randomBase64Url } from "../../shared/ids/base64url.js";
import { newHandoffId } from "../../shared/ids/tokens.js";
import { type CaptureServer, startCaptureServer } from "../helpers/capture-server.js";
import { ensureBuilt, repoRoot, runCli } from "../helpers/cli.js";
import { ALL_HOSTILE, TERMINAL_ATTACK, expectNoRawHostile } from "../helpers/hostile-text.js";

// Every output path that shows text we did not write, fed every class of character a terminal
// acts on (C0, DEL, C1, bidi controls with LRM/RLM/ALM, U+2028/U+2029): the human output shows
// them escaped, the --json output carries them as \u escapes and still parses.

beforeAll(ensureBuilt, 120_000);

const HOSTILE = `${TERMINAL_ATTACK}|${ALL_HOSTILE.join("|")}`;

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 429, headers: { "retry-after": "30" }, body: { error: { code: "rate_limited", message: HOSTILE } } }));
});
afterAll(async () => server?.close());

let base: string;
let home: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "handoff-terminal-"));
  home = join(base, "home");
  await mkdir(join(home, ".config", "handoff", "published"), { recursive: true, mode: 0o700 });
});
afterEach(async () => rm(base, { recursive: true, force: true }));

const run = (args: string[], input = "") => runCli(args, { cwd: base, env: { HOME: home }, input });

describe("a server's error message", () => {
  it.each([
    ["resume <url> --peek", (url: string) => ["resume", url.replace(/#.*/, ""), "--peek"]],
    ["resume <url>", (url: string) => ["resume", url]],
  ])("%s: a 429 holding ESC ]0; and ESC [2J reaches stderr escaped, and --json as \\u escapes", async (_name, args) => {
    const url = `${server.url}/h/${randomBase64Url(16)}#${newShareKey()}`;
    const human = await run(args(url));
    expect(human.code).toBe(3);
    expectNoRawHostile(human.stderr + human.stdout);
    expect(human.stderr).toContain("slow down\\u001b]0;pwned\\u0007\\u001b[2J");
    const json = await run([...args(url), "--json"]);
    expect(json.code).toBe(3);
    expectNoRawHostile(json.stdout + json.stderr);
    const body = JSON.parse(json.stdout) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toContain("slow down\\u001b]0;pwned");
  });
});

describe("phase names of a kernel manifest", () => {
  it("the phase list and the 'rule ... invalidated:' line show them escaped; --json round-trips them", async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, "test/fixtures/kernel/example.yaml-skill-unification-2026-07-10.json"), "utf8")) as {
      workflow: { phases: { name: string }[]; invalidation_rules: { invalidates: string[] }[] };
    };
    const name = `recon${HOSTILE}`;
    manifest.workflow.phases[0]!.name = name;
    manifest.workflow.invalidation_rules[0]!.invalidates = [name, "migration"];
    const text = JSON.stringify(manifest);
    const human = await run(["resume", "-"], text);
    expectNoRawHostile(human.stdout + human.stderr);
    expect(human.stdout).toMatch(/rule 0 \(artifact_hash_mismatch [^)]*\) invalidated: reconslow down\\u001b\]0;pwned/);
    const json = await run(["resume", "-", "--json"], text);
    expectNoRawHostile(json.stdout);
    const result = JSON.parse(json.stdout) as { phases: { name: string; status: string }[]; applied_rules: { invalidated: string[] }[] };
    expect(result.phases[0]).toMatchObject({ name, status: "invalidated" });
    expect(result.applied_rules[0]!.invalidated).toEqual([name, "migration"]);
  });
});

describe("published titles", () => {
  it("human output escapes them; --json round-trips them", async () => {
    const id = newHandoffId();
    const record = {
      id,
      server: server.url,
      url_without_key: `${server.url}/h/${id}`,
      owner_token: `hdo_${randomBase64Url(32)}`,
      expires_at: "2099-01-01T00:00:00.000Z",
      max_views: 2,
      scope: "link",
      created_at: "2026-01-01T00:00:00.000Z",
      title: `Release ${HOSTILE}`,
      local_path: `/tmp/x${HOSTILE}.md`,
    };
    await writeFile(join(home, ".config", "handoff", "published", `${id}.json`), JSON.stringify(record), { mode: 0o600 });
    const human = await run(["published", "--offline"]);
    expect(human.code, human.stderr).toBe(0);
    expectNoRawHostile(human.stdout + human.stderr);
    expect(human.stdout).toContain("Release slow down\\u001b]0;pwned");
    const json = await run(["published", "--offline", "--json"]);
    expectNoRawHostile(json.stdout);
    expect((JSON.parse(json.stdout) as { published: { title: string }[] }).published[0]!.title).toBe(record.title);
  });
});
