import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { ensureBuilt } from "../helpers/cli.js";
import { type Host, json, makeHost, startServer, waitUntil } from "./hosts.js";

// A server with tight limits (1-second minimum lifetime, 8 KiB bodies), so expiry and a real
// 413 from the worker can be seen in a test run.

const MAX_BODY_BYTES = 8 * 1024;
const BODY = `# Rotate the signing key

## Current state
The new key is generated; the verifier still trusts only the old one.

## Next steps
- add the new key to the verifier's trust list
`;

let server: LocalServer | undefined;
let a: Host;
let b: Host;

beforeAll(async () => {
  const base = tempDir("handoff-e2e-limits-");
  await ensureBuilt();
  server = await startServer(join(base, "server-state"), { vars: { MIN_EXPIRES_IN_SECONDS: "1", MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
  const repo = makeRepo(join(base, "repo"), { "README.md": "# Keys\n" });
  a = makeHost(base, "a", repo, { HANDOFF_SERVER: server.url });
  b = makeHost(base, "b", repo);
});

afterAll(async () => {
  await server?.stop();
});

describe("limits enforced by the real worker", () => {
  it("an expired link fails as expired, for peek and for resume", async () => {
    const created = await a.run(["create", "--publish", "--expires", "2s", "--json"], { input: BODY });
    expect(created.code, created.stderr).toBe(0);
    const { url, expires_at } = json<{ url: string; expires_at: string }>(created);
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.parse(json<{ metadata: { created_at: string } }>(created).metadata.created_at));

    // Peeking spends no view, so polling it is free; bounded far past the 2-second lifetime so a
    // busy machine's slow runs cannot end the wait before the link expires.
    let lastPeek = "";
    const expired = await waitUntil(async () => {
      const peek = await b.run(["resume", url, "--peek"]);
      lastPeek = `${peek.code} ${peek.stderr}`;
      return peek.code === 3;
    }, 120_000);
    expect(expired, lastPeek).toBe(true);
    expect(lastPeek).toMatch(/has expired/);

    const resume = await b.run(["resume", url, "--json"]);
    expect(resume.code).toBe(3);
    expect(resume.stderr).toMatch(/this share link has expired/);
    expect(json(resume)).toMatchObject({ error: { code: "expired" } });
    expect(resume.stdout).not.toContain("signing key");

    const listed = await a.run(["published", "--json"]);
    expect(json<{ published: { state: string }[] }>(listed).published[0]?.state).toBe("expired");
  });

  it("an --expires this server refuses is never offered again in the retry (defect 9)", async () => {
    const run = await a.run(["create", "--publish", "--expires", "90d"], { input: BODY });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/this server refuses that --expires/);
    const retry = /retry without it[^:]*: (handoff publish .*)$/m.exec(run.stderr)?.[1];
    expect(retry, run.stderr).toBeDefined();
    expect(retry).not.toContain("--expires");
    const again = await a.run(
      retry!
        .split(" ")
        .slice(1)
        .map((w) => w.replace(/^'(.*)'$/, "$1")),
    );
    expect(again.code, again.stderr).toBe(0);
  });

  it("a body over the server's limit is a 413: exit 3, local handoff kept, retry printed", async () => {
    const big = `${BODY}\n## References\n${"- docs/keys.md explains the rotation schedule in detail\n".repeat(400)}`;
    const run = await a.run(["create", "--publish", "--json"], { input: big });
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "too_large" } });
    expect(run.stderr).toMatch(/too large|larger than/i);
    const path = /the local handoff is kept: (\/\S+\.md)/.exec(run.stderr)?.[1];
    expect(path, run.stderr).toBeDefined();
    expect(readFileSync(path!, "utf8")).toContain("rotation schedule");
    expect(run.stderr).toMatch(/retry: handoff publish '/);
  });

  it("a weak passphrase is published with a warning that gives its estimate; the right one still opens it", async () => {
    const file = join(a.repo, "..", "weak.md");
    writeFileSync(file, BODY);
    const run = await a.run(["publish", file, "--passphrase", "--json"], { input: "kqzvbmxj\n" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/the passphrase is weak: about 37 bits by Handoff's estimate \(50 or more draw no warning\)/);
    expect(json<{ warnings: string[] }>(run).warnings.some((w) => w.startsWith("the passphrase is weak"))).toBe(true);
    // Read and shown (whether the plain file is enough to resume from is orientation's call, not this test's).
    const read = await b.run(["resume", "--url-stdin", "--passphrase"], { input: `${json<{ url: string }>(run).url}\nkqzvbmxj\n` });
    expect(read.code, read.stderr).not.toBe(3);
    expect(read.stdout, read.stderr).toContain("add the new key to the verifier's trust list");
  });

  it("a chunked body over the limit is a 413 with a clear error, and the next publish succeeds", async () => {
    // No Content-Length, so only counting the stream can stop it: four times the limit, in 1 KiB chunks.
    const refused = await chunkedPublish(server!.url, MAX_BODY_BYTES * 4, 1024);
    expect(refused.status, refused.body).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "too_large", message: `the body is larger than this server's limit of ${MAX_BODY_BYTES} bytes` } });
    // The worker is still serving: the next publish, and a chunked one within the limit, succeed.
    const next = await a.run(["create", "--publish", "--json"], { input: BODY });
    expect(next.code, next.stderr).toBe(0);
    const small = await chunkedPublish(server!.url, MAX_BODY_BYTES / 2, 1024);
    expect(small.status, small.body).toBe(201);
  });
});

describe("an owner record that cannot be written never leaves a link no one can revoke", () => {
  // The config folder's published/ made unwritable by putting a file where the folder goes (the
  // folder itself would be repaired: the CLI resets its own folder's mode), before the publish or
  // while the server handles it. A proxy in front of the real worker does the latter, and can
  // drop Handoff-Owner-Token to play a server from before it (which draws its own owner token).
  let proxy: Proxy;
  let onPublish: () => void = () => {};
  let olderServer = false;
  beforeAll(async () => {
    proxy = await startProxy(server!.url, (request) => {
      if (request.method === "POST") onPublish();
      return olderServer ? ["handoff-owner-token"] : [];
    });
  });
  afterAll(async () => proxy?.close());

  const publishedDir = (host: Host) => join(host.env.XDG_CONFIG_HOME!, "handoff", "published");
  /** Puts a file where published/ goes (its records moved aside); the returned function puts them back. */
  const blockRecords = (host: Host) => {
    const dir = publishedDir(host);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    renameSync(dir, `${dir}.aside`);
    writeFileSync(dir, "not a folder\n");
    return () => {
      rmSync(dir);
      renameSync(`${dir}.aside`, dir);
    };
  };
  const metaOf = (id: string) => fetch(`${server!.url}/v1/handoffs/${id}/meta`);
  let n = 0;
  const freshHost = () => {
    const host = makeHost(tempDir("handoff-e2e-owner-"), `owner-${++n}`, a.repo, { HANDOFF_SERVER: proxy.url });
    const file = join(host.env.HOME!, "plan.md");
    writeFileSync(file, BODY);
    return { host, file };
  };

  it("before the publish: nothing is sent, exit 3, the local handoff is kept and the error says what to free and the retry", async () => {
    const { host, file } = freshHost();
    blockRecords(host);
    const posts = proxy.posts;
    const run = await host.run(["publish", file, "--json"]);
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "io_failed", details: { owner_record: "not_written", path: file } } });
    expect(run.stderr).toMatch(/could not keep the owner token of the new link \(.*\), so nothing was published; the local handoff is kept/);
    expect(run.stderr).toMatch(/free space in .*published, or make it writable .*; then retry: handoff publish /);
    expect(proxy.posts).toBe(posts);
    expect(readFileSync(file, "utf8")).toBe(BODY);
  });

  it("while the server stores it: the record written before the publish keeps the owner token, and revoke ends the link", async () => {
    const { host, file } = freshHost();
    let restore = () => {};
    onPublish = () => (restore = blockRecords(host));
    const run = await host.run(["publish", file, "--json"]);
    onPublish = () => {};
    expect(run.code, run.stderr).toBe(0);
    const { id } = json<{ id: string }>(run);
    expect(run.stderr).toMatch(new RegExp(`could not complete the local record of ${id} .*'handoff revoke ${id}' works`));
    restore();
    expect(JSON.parse(readFileSync(join(publishedDir(host), `${id}.json`), "utf8"))).toMatchObject({ id, pending: true });
    expect((await metaOf(id)).status).toBe(200);
    const revoked = await host.run(["revoke", id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await metaOf(id)).status).toBe(410);
  });

  it("a server that draws its own owner token, which cannot be kept: the link is revoked at once and the publish fails (exit 3)", async () => {
    const { host, file } = freshHost();
    olderServer = true;
    onPublish = () => blockRecords(host);
    const run = await host.run(["publish", file, "--json"]);
    olderServer = false;
    onPublish = () => {};
    expect(run.code).toBe(3);
    const error = json<{ error: { code: string; message: string; details: { id: string; revoked: boolean } } }>(run).error;
    expect(error).toMatchObject({ code: "io_failed", details: { revoked: true, path: file } });
    expect(error.message).toMatch(/so that link was revoked rather than left live with no way to end it; the local handoff is kept/);
    const meta = await metaOf(error.details.id);
    expect(meta.status).toBe(410);
    expect(((await meta.json()) as { error: { code: string } }).error.code).toBe("revoked");
    expect(readFileSync(file, "utf8")).toBe(BODY);
  });
});

interface Proxy {
  url: string;
  /** POSTs seen so far. */
  posts: number;
  close(): Promise<void>;
}

/**
 * A loopback proxy to `target`: `hook` sees each request before it is forwarded and names request
 * headers to drop. Bodies and answers pass through unchanged.
 */
async function startProxy(target: string, hook: (request: { method: string; url: string }) => string[]): Promise<Proxy> {
  const proxy = { url: "", posts: 0, close: async () => {} } as Proxy;
  const listener = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST") proxy.posts++;
      const drop = new Set(["host", "connection", "content-length", ...hook({ method: req.method ?? "", url: req.url ?? "" })]);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name, value]) => !drop.has(name) && typeof value === "string")) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${req.url}`, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) })
        .then(async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  proxy.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      listener.closeAllConnections();
      listener.close(() => resolve());
    });
  return proxy;
}

/**
 * POSTs `total` random bytes with Transfer-Encoding: chunked (no Content-Length), `chunk` bytes
 * at a time, and answers the response. The server may answer before the upload is done; the
 * rest of the upload is then dropped, as a client on a closed connection would.
 */
function chunkedPublish(server: string, total: number, chunk: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server}/v1/handoffs?expires_in=3600`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream", "Handoff-Read-Token": randomBytes(32).toString("base64url") },
      timeout: 60_000,
    });
    let answered = false;
    req.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("no answer from the server within 60 s")));
    // A reset after the server answered is the server closing an upload it refused.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    let sent = 0;
    const pump = () => {
      while (sent < total && !answered && !req.destroyed) {
        sent += chunk;
        if (!req.write(randomBytes(chunk))) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}
