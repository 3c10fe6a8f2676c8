import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type LocalServer } from "../../scripts/local-server.js";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { type CliRun, ensureBuilt } from "../helpers/cli.js";
import { type FakeServer, type Host, json, listFilesDeep, makeHost, shellWords, startFakeServer, startServer } from "./hosts.js";

// Local-only fallback: whatever goes wrong with the server, the local handoff is written, kept
// byte for byte, named, and the exact retry command is printed; exit 3.

const BODY = `# Wire the cache

## Current state
The cache layer compiles; eviction is not wired yet.

## Next steps
- wire eviction into src/cache.ts
`;

let base: string;
let repo: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  base = tempDir("handoff-e2e-fallback-");
  repo = makeRepo(join(base, "repo"), { "README.md": "# Cache\n" });
  await ensureBuilt();
});

afterAll(async () => {
  // Every server this file started, even when a test failed before stopping its own.
  await Promise.allSettled(cleanups.map((stop) => stop()));
});

let hosts = 0;
function host(env: Record<string, string> = {}): Host {
  return makeHost(base, `host-${++hosts}`, repo, env);
}

async function fake(answer: Parameters<typeof startFakeServer>[0]): Promise<FakeServer> {
  const server = await startFakeServer(answer);
  cleanups.push(() => server.close());
  return server;
}

/** The kept handoff named in stderr: exists, and is exactly what a local create writes. */
function keptFile(run: CliRun): string {
  const match = /the local handoff is kept: (\/\S+\.md)/.exec(run.stderr);
  expect(match, run.stderr).not.toBeNull();
  const path = match![1]!;
  expect(readFileSync(path, "utf8")).toContain("eviction is not wired yet");
  return path;
}

/** The retry command from the hint line, as argv words after `handoff`. */
function retryArgs(run: CliRun): string[] {
  const line = /retry: (handoff publish .*)$/m.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  const words = shellWords(line![1]!);
  expect(words[0]).toBe("handoff");
  return words.slice(1);
}

describe("no server configured", () => {
  it("create --publish keeps the local handoff, says how to configure one, exit 3", async () => {
    const a = host();
    const run = await a.run(["create", "--publish"], { input: BODY });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/no publishing server is configured/);
    expect(run.stderr).toMatch(/--server URL, set HANDOFF_SERVER/);
    expect(run.stderr).toMatch(/npm start/);
    const path = keptFile(run);
    expect(path.startsWith(a.root)).toBe(true);
  });

  it("--local --publish is a usage error, and nothing is written", async () => {
    const a = host();
    const run = await a.run(["create", "--local", "--publish"], { input: BODY });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--publish and --local do not go together/);
    expect(listFilesDeep(a.root)).toEqual([]);
  });

  it("--json still prints the error object with the kept path", async () => {
    const a = host();
    const run = await a.run(["create", "--publish", "--json"], { input: BODY });
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "not_configured", details: { path: keptFile(run) } } });
  });
});

describe("server unreachable, slow, failing or refusing", () => {
  const cases: { name: string; server: () => Promise<string>; env?: Record<string, string>; code: string; message: RegExp }[] = [
    { name: "a closed port", server: async () => `http://127.0.0.1:${await freePort()}`, code: "network", message: /could not reach http:\/\/127\.0\.0\.1:\d+: connection refused/ },
    {
      name: "a server that never answers",
      server: async () => (await fake("hang")).url,
      env: { HANDOFF_HTTP_TIMEOUT_MS: "1000" },
      code: "network",
      message: /no answer from http:\/\/127\.0\.0\.1:\d+ within 1 s/,
    },
    { name: "a dropped connection", server: async () => (await fake("drop")).url, code: "network", message: /could not reach http:\/\/127\.0\.0\.1:\d+: the connection was reset/ },
    {
      name: "a 500",
      server: async () => (await fake({ status: 500, body: "boom" })).url,
      code: "server_error",
      message: /publishing to http:\/\/127\.0\.0\.1:\d+ failed: the server failed \(HTTP 500\)/,
    },
    { name: "a 413", server: async () => (await fake({ status: 413 })).url, code: "too_large", message: /failed: the server refused the body as too large \(HTTP 413\)/ },
  ];

  it.each(cases)("$name: exit 3, local handoff kept and named, retry command printed", async ({ server, env, code, message }) => {
    const url = await server();
    const a = host({ HANDOFF_SERVER: url, ...env });
    const run = await a.run(["create", "--publish", "--max-views", "3", "--json"], { input: BODY });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(message);
    expect(json(run)).toMatchObject({ error: { code } });
    const path = keptFile(run);
    expect(retryArgs(run)).toEqual(["publish", path, "--server", url, "--max-views", "3"]);
    expect(run.stderr).not.toMatch(/retry.*retry/);
  });

  it("a closed port: the create report is printed as for a local create (redaction, machine-local paths, retention), then the error naming the kept file", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const a = host({ HANDOFF_SERVER: url });
    // Built at run time: no token-shaped literal sits in the repository.
    const secret = `ghp_${"Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5"}`;
    const body = BODY.replace("eviction is not wired yet.", `eviction is not wired yet; notes in ${join(base, "notes.txt")}, token ${secret}.`);
    const run = await a.run(["create", "--publish", "--title", "Wire the cache"], { input: body });
    expect(run.code).toBe(3);
    const path = keptFile(run);
    expect(readFileSync(path, "utf8")).not.toContain(secret);
    expect(run.stderr).toContain(`Wrote ${path}`);
    expect(run.stderr).toMatch(/redacted: 1 secret replaced by \[REDACTED:<rule>\]\n\s+github-token: 1/);
    expect(run.stderr).toMatch(/the body names machine-local absolute paths \([^)]*notes\.txt\)/);
    expect(run.stderr).toMatch(/^Retention: the managed store lives in /m);
    // The report comes first, the error last, so the kept path is the last thing read.
    expect(run.stderr.indexOf("Retention:")).toBeLessThan(run.stderr.indexOf("connection refused"));
    expect(run.stderr).toMatch(new RegExp(`could not reach ${url.replace(/[.]/g, "\\.")}: connection refused; the local handoff is kept: `));
    expect(retryArgs(run)).toEqual(["publish", path, "--server", url]);
    expect(run.stdout).not.toContain(secret);
  });

  it("create --publish --with-changes: the retry command keeps --with-changes, so the bundle written beside the handoff is not dropped", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const dirty = makeRepo(join(base, "repo-with-changes"), { "README.md": "# Cache\n" });
    writeFileSync(join(dirty, "README.md"), "# Cache\n\nEviction: LRU.\n");
    const a = makeHost(base, `host-${++hosts}`, dirty, { HANDOFF_SERVER: url });
    const run = await a.run(["create", "--publish", "--with-changes"], { input: BODY });
    expect(run.code).toBe(3);
    const path = keptFile(run);
    expect(readFileSync(path, "utf8")).toMatch(/^changes: ".+\.changes"$/m);
    expect(retryArgs(run)).toEqual(["publish", path, "--server", url, "--with-changes"]);
  });

  it("a malformed HANDOFF_HTTP_TIMEOUT_MS is refused, not ignored", async () => {
    const a = host({ HANDOFF_SERVER: "http://127.0.0.1:9", HANDOFF_HTTP_TIMEOUT_MS: "soon" });
    const run = await a.run(["publish", join(base, "repo", "README.md")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/HANDOFF_HTTP_TIMEOUT_MS must be a whole number/);
  });

  it("resume from a server that never answers times out with exit 3", async () => {
    const slow = await fake("hang");
    const b = host({ HANDOFF_HTTP_TIMEOUT_MS: "1000" });
    const run = await b.run(["resume", `${slow.url}/h/AAAAAAAAAAAAAAAAAAAAAA#${"A".repeat(43)}`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/no answer from .* within 1 s/);
    expect(slow.requests).toBe(1);
  });
});

describe("resume from a plain URL (not a share link)", () => {
  it("fetches the document over HTTP and orients from it", async () => {
    const served = await fake({ status: 200, body: `${BODY}\n## Objective\nEvict entries past their TTL.\n` });
    const run = await host().run(["resume", `${served.url}/notes/handoff.md`]);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain("wire eviction into src/cache.ts");
    expect(served.requests).toBe(1);
  });

  it("a 404 there is unreadable, exit 3", async () => {
    const served = await fake({ status: 404, body: "no" });
    const run = await host().run(["resume", `${served.url}/missing.md`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/HTTP 404/);
  });
});

describe("server stopped mid-publish", () => {
  let server: LocalServer | undefined;

  it("exit 3 with the file kept; the printed retry works once the server is back", async () => {
    const persistTo = join(base, "server-state");
    server = await startServer(persistTo);
    cleanups.push(() => server!.stop());
    const { url, port } = server;
    const a = host({ HANDOFF_SERVER: url });
    const warmup = await a.run(["publish", join(repo, "README.md")]);
    expect(warmup.code, warmup.stderr).toBe(0);

    await server.stop();
    const failed = await a.run(["create", "--publish", "--expires", "2h", "--max-views", "2"], { input: BODY });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/could not reach/);
    const path = keptFile(failed);
    const before = readFileSync(path);
    const args = retryArgs(failed);
    expect(args).toEqual(["publish", path, "--server", url, "--expires", "7200s", "--max-views", "2"]);

    server = await startServer(persistTo, { port });
    cleanups.push(() => server!.stop());
    const retried = await a.run([...args, "--json"]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(json(retried)).toMatchObject({ path, max_views: 2, scope: "link" });
    expect(readFileSync(path).equals(before)).toBe(true);

    const b = host();
    const resumed = await b.run(["resume", json<{ url: string }>(retried).url]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("eviction is not wired yet");
  });
});
