import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { join } from "node:path";
import { type LocalServer, type LocalServerOptions, startLocalServer } from "../../scripts/local-server.js";
import { afterAll, beforeAll } from "vitest";
import { git, tempDir } from "../client/git-repo.js";
import { type CliRun, ensureBuilt, repoRoot, runCli, runMarker, runTmpdir } from "../helpers/cli.js";

/**
 * End-to-end harness: "hosts" are CLI users with their own HOME, TMPDIR, HANDOFF_ROOT and
 * config folder (nothing shared but the server and, for a clone, the upstream repository), the
 * server is real `wrangler dev` with its state in a temp folder, and the failure servers are
 * tiny node:http listeners on 127.0.0.1.
 */

export interface Host {
  name: string;
  /** The host's checkout: where its commands run. */
  repo: string;
  root: string;
  env: Record<string, string>;
  /** Runs the CLI in the host's checkout, or in `cwd`. */
  run(args: string[], options?: { input?: string; env?: Record<string, string>; cwd?: string }): Promise<CliRun>;
}

/** A host whose folders live under `base/name`; `extraEnv` (a server, a team token) is layered on top. */
export function makeHost(base: string, name: string, repo: string, extraEnv: Record<string, string> = {}): Host {
  const dir = join(base, name);
  const folders = { HOME: join(dir, "home"), TMPDIR: join(dir, "tmp"), HANDOFF_ROOT: join(dir, "handoffs"), XDG_CONFIG_HOME: join(dir, "config") };
  for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true, mode: 0o700 });
  const env = { ...folders, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", ...extraEnv };
  return {
    name,
    repo,
    root: folders.HANDOFF_ROOT,
    env,
    run: (args, options = {}) =>
      runCli(args, {
        cwd: options.cwd ?? repo,
        env: { ...env, ...options.env },
        ...(options.input !== undefined ? { input: options.input } : {}),
      }),
  };
}

/**
 * A bare upstream with one commit, and `names.length` clones of it under `base/<name>/repo`: every
 * host sees the same repository identity (the upstream's URL) and history, with its own checkout.
 */
export function makeSharedRepo(base: string, names: string[], files: Record<string, string>): Record<string, string> {
  const seed = join(base, "seed");
  mkdirSync(seed, { recursive: true });
  git(seed, "init", "-q", "-b", "main");
  for (const [path, content] of Object.entries(files)) writeFileSync(join(seed, path), content);
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "initial");
  const upstream = join(base, "upstream.git");
  git(base, "clone", "-q", "--bare", seed, upstream);
  const clones: Record<string, string> = {};
  for (const name of names) {
    const repo = join(base, name, "repo");
    mkdirSync(join(base, name), { recursive: true });
    git(base, "clone", "-q", upstream, repo);
    clones[name] = repo;
  }
  return clones;
}

/** Commits `files` in `repo` (fixed identity and date); returns the new HEAD. */
export function commitFiles(repo: string, files: Record<string, string>, message: string): string {
  for (const [path, content] of Object.entries(files)) writeFileSync(join(repo, path), content);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", message);
  return git(repo, "rev-parse", "HEAD");
}

/**
 * One real server for a whole test file of two-host cases (call at the file's top level: it
 * registers the file's beforeAll and afterAll). Each `pair(files)` is a fresh upstream holding
 * `files` with clones for A (configured for the server) and B (configured for none: a share link
 * carries its own server); `scratch(name)` is a path in the file's temp folder.
 */
export function hostPairs(prefix: string): { pair(files: Record<string, string>): { a: Host; b: Host }; scratch(name: string): string } {
  let base = "";
  let server: LocalServer | undefined;
  let count = 0;
  beforeAll(async () => {
    base = tempDir(prefix);
    // One after the other: a server started next to a failing build would be left running.
    await ensureBuilt();
    server = await startServer(join(base, "server-state"));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    pair(files) {
      const dir = join(base, `pair-${++count}`);
      const repos = makeSharedRepo(dir, ["a", "b"], files);
      return { a: makeHost(dir, "a", repos.a!, { HANDOFF_SERVER: server!.url }), b: makeHost(dir, "b", repos.b!) };
    },
    scratch: (name) => join(base, `${++count}-${name}`),
  };
}

/** The real worker on a free loopback port, its state in `persistTo`; anonymous publishing on. */
export function startServer(persistTo: string, options: Omit<LocalServerOptions, "persistTo"> = {}): Promise<LocalServer> {
  return startLocalServer({ ...options, persistTo, vars: { ALLOW_ANONYMOUS_PUBLISH: "true", ...options.vars } });
}

/** Parses a command's `--json` stdout, failing with the whole run when it is not JSON. */
export function json<T = Record<string, unknown>>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`expected JSON on stdout (exit ${run.code})\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  }
}

/** Every regular file below `dir` whose raw bytes contain `needle`. */
export function filesContaining(dir: string, needle: string | Uint8Array): string[] {
  const bytes = typeof needle === "string" ? Buffer.from(needle, "utf8") : Buffer.from(needle);
  return listFilesDeep(dir).filter((path) => readFileSync(path).includes(bytes));
}

/** Every regular file below `dir`, absolute paths. */
export function listFilesDeep(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return stat.isDirectory() ? listFilesDeep(path) : stat.isFile() ? [path] : [];
  });
}

/**
 * Splits a command line the CLI printed (`handoff publish '/a b/x.md' --server URL`) into its
 * words: single-quoted words (with `'\''` for a quote) and bare words, which is all shellQuote writes.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /\s*((?:'[^']*'|\\'|[^\s'\\]+)+)/gy;
  let end = 0;
  for (let match = pattern.exec(line); match !== null; match = pattern.exec(line)) {
    words.push(match[1]!.replace(/'([^']*)'|\\(')/g, (_all, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? ""));
    end = pattern.lastIndex;
  }
  if (line.slice(end).trim() !== "") throw new Error(`cannot split the command line: ${line}`);
  return words;
}

/** A loopback HTTP server that answers every request the same way, never (`"hang"`), or drops the connection (`"drop"`). */
export interface FakeServer {
  url: string;
  /** Requests seen, for asserting the client really called. */
  requests: number;
  close(): Promise<void>;
}

export async function startFakeServer(answer: { status: number; body?: string } | "hang" | "drop"): Promise<FakeServer> {
  const hanging = new Set<import("node:http").ServerResponse>();
  const fake = { url: "", requests: 0, close: async () => {} } as FakeServer;
  const server: Server = createServer((req, res) => {
    fake.requests++;
    // Drain the upload so the client is not blocked writing it.
    req.resume();
    if (answer === "hang") {
      hanging.add(res);
      return;
    }
    req.on("end", () => {
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { "content-type": "text/plain" });
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  fake.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The share URL's `#key` with its first character changed: same length, still base64url, wrong. */
export function wrongKeyUrl(url: string): string {
  const at = url.indexOf("#") + 1;
  const first = url[at]!;
  return `${url.slice(0, at)}${first === "A" ? "B" : "A"}${url.slice(at + 1)}`;
}

/**
 * Polls `probe` until it returns true, at most `timeoutMs`, every `intervalMs`: for states that
 * arrive with the clock (an expiry), without a fixed sleep longer than needed.
 */
export async function waitUntil(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return probe();
}

/**
 * A deployment-like server for team tests: anonymous publishing off, an operator token, its state
 * in `<base>/server-state`; `team(...args)` runs `npm run team -- <args> --json` against it.
 */
export async function startOperatorServer(base: string): Promise<{ server: LocalServer; team: (...args: string[]) => Promise<string> }> {
  const adminToken = randomBytes(32).toString("base64url");
  const envFile = join(base, "admin.env");
  writeFileSync(envFile, `ADMIN_TOKEN=${adminToken}\n`, { mode: 0o600 });
  await ensureBuilt();
  const server = await startServer(join(base, "server-state"), { envFiles: [envFile], vars: { ALLOW_ANONYMOUS_PUBLISH: "false" } });
  const team = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(repoRoot, "scripts", "team.js"), ...args, "--server", server.url, "--json"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HANDOFF_ADMIN_TOKEN: adminToken, ...runTmpdir(), ...runMarker() },
    });
    return stdout;
  };
  return { server, team };
}
