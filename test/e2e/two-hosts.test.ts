import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { openHandoff } from "../../shared/crypto/envelope.js";
import { READ_TOKEN_HEADER, deriveReadToken } from "../../shared/crypto/read-token.js";
import { parseShareUrl } from "../../shared/api/share-url.js";
import { tempDir } from "../client/git-repo.js";
import { ensureBuilt } from "../helpers/cli.js";
import { type Host, commitFiles, filesContaining, json, listFilesDeep, makeHost, makeSharedRepo, startServer, wrongKeyUrl } from "./hosts.js";

// Two hosts, one real server: A publishes from its checkout, B resumes from its own clone.

const MARKER = `marker-${randomUUID()}`;
const BODY = `# Finish the retry path

## Objective
Make the uploader retry on 503 with exponential backoff (${MARKER}).

## Current state
src/retry.ts has the loop; the backoff has no test yet.

## Next steps
- write the backoff test in test/retry.test.ts
`;

interface PublishJson {
  path: string;
  url: string;
  id: string;
  expires_at: string;
  max_views: number | null;
  scope: string;
  warnings: string[];
  resume_command: string;
}

interface Orientation {
  body: string;
  sufficient: boolean;
  drift: { event: string; status: string; expected?: unknown; actual?: unknown }[];
}

let base: string;
let persistDir: string;
let server: LocalServer | undefined;
let a: Host;
let b: Host;

beforeAll(async () => {
  base = tempDir("handoff-e2e-hosts-");
  persistDir = join(base, "server-state");
  // One after the other: a server started next to a failing build would be left running.
  await ensureBuilt();
  server = await startServer(persistDir);
  const repos = makeSharedRepo(base, ["a", "b"], { "README.md": "# Uploader\n", "retry.ts": "export const tries = 3;\n" });
  a = makeHost(base, "a", repos.a!, { HANDOFF_SERVER: server.url });
  // B is configured for no server: a share URL carries its own.
  b = makeHost(base, "b", repos.b!);
});

afterAll(async () => {
  await server?.stop();
});

async function publishFromA(args: string[]): Promise<PublishJson> {
  const run = await a.run(["create", "--title", "Finish the retry path", "--publish", "--json", ...args], { input: BODY });
  expect(run.code, run.stderr).toBe(0);
  return json<PublishJson>(run);
}

/** GET of the body as any reader would (with the read token the key proves), decrypted with the same shared code the CLI uses. */
async function fetchAndOpen(url: string) {
  const share = parseShareUrl(url);
  if (!share.ok) throw share.error;
  const response = await fetch(`${share.value.server}/v1/handoffs/${share.value.id}`, {
    headers: { [READ_TOKEN_HEADER]: await deriveReadToken(share.value.key!) },
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(200);
  const ciphertext = new Uint8Array(await response.arrayBuffer());
  return { ciphertext, ...(await openHandoff(ciphertext, share.value.key!)) };
}

describe("publish on host A, resume on host B", () => {
  it("two views, byte-identical, drift against B's checkout, then used up", async () => {
    const published = await publishFromA(["--max-views", "2"]);
    expect(published.max_views).toBe(2);
    expect(published.url.startsWith(`${server!.url}/h/${published.id}#`)).toBe(true);
    const local = readFileSync(published.path);

    // B moved on: one commit past what A recorded.
    const bHead = commitFiles(b.repo, { "notes.txt": "b was here\n" }, "b: notes");

    const peek = await b.run(["resume", published.url, "--peek", "--json"]);
    expect(peek.code, peek.stderr).toBe(0);
    expect(json(peek)).toMatchObject({ id: published.id, max_views: 2, views_used: 0, views_left: 2 });

    const first = await b.run(["resume", published.url, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    const orientation = json<Orientation>(first);
    expect(orientation.sufficient).toBe(true);
    expect(local.toString("utf8").endsWith(orientation.body)).toBe(true);
    expect(orientation.body).toContain(MARKER);
    const commit = orientation.drift.find((d) => d.event.startsWith("commit_"));
    expect(commit).toMatchObject({ event: "commit_advanced", status: "drift", actual: bHead });
    expect(orientation.drift.find((d) => d.event === "repository_mismatch")).toBeUndefined();
    // The key never shows in what B prints.
    expect(first.stdout + first.stderr).not.toContain(published.url.slice(published.url.indexOf("#")));

    const opened = await fetchAndOpen(published.url);
    expect(Buffer.from(opened.plaintext).equals(local)).toBe(true);
    expect(opened.meta).toMatchObject({ format: "ce-handoff/v1", file_name: published.path.split("/").pop() });

    // B reads it again from the copy its first resume kept (no view), until that copy is removed.
    const again = await b.run(["resume", published.url, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    const copy = json<{ local_copy: { path: string; view_spent: boolean } }>(again).local_copy;
    expect(copy.view_spent).toBe(false);
    expect((await b.run(["rm", copy.path])).code).toBe(0);
    const third = await b.run(["resume", published.url]);
    expect(third.code).toBe(3);
    expect(third.stderr).toMatch(/used up/);
    expect(third.stdout).not.toContain(MARKER);
  });

  it("the link never needs to be a command-line word: publish prints --paste; show and resume take it on stdin; --peek ignores a damaged key", async () => {
    const published = await publishFromA(["--max-views", "3"]);
    expect(published.resume_command).toBe("handoff resume --paste");
    const human = await a.run(["publish", published.path, "--max-views", "1"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe("```\nhandoff resume --paste\n```\n");
    // The URL is printed once, as the share URL, and never inside a command.
    expect(human.stderr.match(/https?:\/\/\S+\/h\/\S+#[A-Za-z0-9_-]{43}/g), human.stderr).toHaveLength(1);
    expect(human.stderr).not.toMatch(/handoff (resume|show) '?https?:/);

    const shown = await b.run(["show", "--url-stdin"], { input: `${published.url}\n` });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(readFileSync(published.path, "utf8"));
    expect(shown.stderr).toContain("2 views left");

    // 43 characters, but not a canonical key (rough edge 2): the read says so; --peek needs no key at all.
    const damaged = `${published.url.slice(0, published.url.indexOf("#") + 1)}${"B".repeat(43)}`;
    const read = await b.run(["resume", "--url-stdin"], { input: damaged });
    expect(read.code).toBe(3);
    expect(read.stderr).toMatch(/bad key format: the 43 characters after '#' are not a canonical base64url key/);
    const peek = await b.run(["resume", "--url-stdin", "--peek", "--json"], { input: damaged });
    expect(peek.code, peek.stderr).toBe(0);
    expect(json(peek)).toMatchObject({ id: published.id, views_left: 2 });
  });

  it("revoke from A makes B's next read fail as revoked", async () => {
    const published = await publishFromA([]);
    const before = await b.run(["resume", published.url]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain(MARKER);

    const revoke = await a.run(["revoke", published.id, "--json"]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(json(revoke)).toMatchObject({ id: published.id, revoked: true });

    // B's first resume kept the opened link; the revoke takes that copy with it.
    expect(readdirSync(join(b.root, "opened"))).toEqual([`${published.id}.json`]);
    const after = await b.run(["resume", published.url, "--json"]);
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/revoked/);
    expect(json(after)).toMatchObject({ error: { code: "revoked" } });
    expect(after.stdout).not.toContain(MARKER);
    expect(readdirSync(join(b.root, "opened"))).toEqual([]);
  });

  it("only A can revoke: B has no owner token for the link", async () => {
    const published = await publishFromA([]);
    const run = await b.run(["revoke", published.url]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/no owner token/);
    expect((await b.run(["resume", published.url])).code).toBe(0);
  });

  it("the server's persisted state holds no plaintext and no key", async () => {
    const published = await publishFromA([]);
    const { ciphertext } = await fetchAndOpen(published.url);
    const key = published.url.slice(published.url.indexOf("#") + 1);
    // The search does find what is there: the local file, and the stored ciphertext.
    expect(filesContaining(a.root, MARKER)).toContain(published.path);
    expect(filesContaining(persistDir, ciphertext).length).toBeGreaterThan(0);
    expect(listFilesDeep(persistDir).length).toBeGreaterThan(0);
    expect(filesContaining(persistDir, MARKER)).toEqual([]);
    expect(filesContaining(persistDir, "Finish the retry path")).toEqual([]);
    expect(filesContaining(persistDir, key)).toEqual([]);
  });

  it("a wrong key is refused as a decryption failure by the server, never garbage, and spends no view", async () => {
    const published = await publishFromA(["--max-views", "1"]);
    const run = await b.run(["resume", wrongKeyUrl(published.url), "--json"]);
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "decrypt_failed" } });
    expect(run.stderr).toMatch(/does not match this link's key/);
    expect(run.stdout).not.toContain(MARKER);
    expect((await b.run(["resume", published.url])).code).toBe(0);
  });

  it("a 1-view link cannot be spent with the id alone; the CLI still opens it", async () => {
    const published = await publishFromA(["--max-views", "1"]);
    const api = `${server!.url}/v1/handoffs/${published.id}`;
    const forged: Array<Record<string, string>> = [{}, { [READ_TOKEN_HEADER]: await deriveReadToken(wrongKeyUrl(published.url).split("#")[1]!) }];
    for (const headers of forged) {
      const response = await fetch(api, { headers, signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("decrypt_failed");
    }
    const peek = await b.run(["resume", published.url, "--peek", "--json"]);
    expect(json(peek)).toMatchObject({ views_used: 0, views_left: 1 });
    const resume = await b.run(["resume", published.url]);
    expect(resume.code, resume.stderr).toBe(0);
    expect(resume.stdout).toContain(MARKER);
  });

  it("tampered ciphertext in the server's storage is detected", async () => {
    const published = await publishFromA([]);
    const { ciphertext } = await fetchAndOpen(published.url);
    const [blob, ...others] = filesContaining(persistDir, ciphertext);
    expect(blob).toBeDefined();
    expect(others).toEqual([]);
    const bytes = readFileSync(blob!);
    const at = bytes.indexOf(Buffer.from(ciphertext)) + ciphertext.length - 20;
    bytes[at] = bytes[at]! ^ 0x01;
    writeFileSync(blob!, bytes);

    const run = await b.run(["resume", published.url, "--json"]);
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "decrypt_failed" } });
    expect(run.stdout).not.toContain(MARKER);
  });

  it("publish --json has the documented keys and no owner token", async () => {
    const file = join(base, "plain-notes.md");
    writeFileSync(file, BODY);
    const run = await a.run(["publish", file, "--json", "--max-views", "3", "--expires", "1h"]);
    expect(run.code, run.stderr).toBe(0);
    const result = json(run);
    expect(Object.keys(result).sort()).toEqual(["expires_at", "id", "max_views", "passphrase", "path", "redaction", "resume_command", "revoke_command", "scope", "url", "warnings"]);
    expect(result).toMatchObject({ path: file, max_views: 3, scope: "link", passphrase: false, resume_command: "handoff resume --paste" });
    expect(Date.parse(result.expires_at as string) - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(run.stdout).not.toMatch(/hdo_/);
    // The file itself is never changed by publishing.
    expect(readFileSync(file, "utf8")).toBe(BODY);
  });

  it("published --json lists A's links with their state; B has none", async () => {
    const run = await a.run(["published", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const { published } = json<{ published: { id: string; state: string; max_views: number | null; views_left: number | null; url: string }[] }>(run);
    expect(published.length).toBeGreaterThanOrEqual(6);
    const states = published.map((p) => p.state);
    expect(states).toContain("exhausted");
    expect(states).toContain("revoked");
    expect(states).toContain("active");
    for (const entry of published) expect(entry.url).not.toContain("#");
    expect(run.stdout).not.toMatch(/hdo_/);

    const none = await b.run(["published", "--json"]);
    expect(none.code).toBe(0);
    expect(json(none)).toEqual({ published: [] });
  });
});
