// The share page's test world: a real `wrangler dev` (anonymous publishing on, 1-second minimum
// lifetime, an operator token for team links), Chromium from test/browser/launch.ts, and the
// built CLI with its own HOME. Each test file starts one and stops it in afterAll.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { type LocalServer, startLocalServer } from "../../scripts/local-server.js";
import { type CliRun, ensureBuilt, repoRoot, runCli } from "../helpers/cli.js";
import { launchChromium } from "./launch.js";

export interface ReaderWorld {
  work: string;
  server: LocalServer;
  browser: Browser;
  /** Runs the built CLI as this world's user; answers the run, whatever its exit code. */
  run(args: string[]): Promise<CliRun>;
  /** Runs the built CLI with `--json`; asserts exit 0 and answers the parsed result. */
  cli(args: string[], env?: Record<string, string>): Promise<unknown>;
  publish(body: string, options?: PublishOptions): Promise<Published>;
  /** A new token for a fresh team (through `npm run team`'s script). */
  teamToken(): Promise<string>;
  stop(): Promise<void>;
}

export interface PublishOptions {
  maxViews?: number;
  fileName?: string;
  expires?: string;
  teamToken?: string;
  /** Publish with `--passphrase`, given on stdin. */
  passphrase?: string;
}

export interface Published {
  url: string;
  id: string;
  fileName: string;
  bytes: Buffer;
}

/** Starts everything; on a failure part-way, stops what did start before rethrowing. */
export async function startReaderWorld(): Promise<ReaderWorld> {
  const work = mkdtempSync(join(tmpdir(), "handoff-reader-"));
  const home = join(work, "home");
  for (const dir of [home, join(work, "tmp"), join(work, "store"), join(work, "files")]) mkdirSync(dir, { mode: 0o700 });
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), TMPDIR: join(work, "tmp"), HANDOFF_ROOT: join(work, "store") };
  const adminToken = randomBytes(32).toString("base64url");
  const envFile = join(work, "admin.env");
  writeFileSync(envFile, `ADMIN_TOKEN=${adminToken}\n`, { mode: 0o600 });
  let server: LocalServer | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await Promise.all([
      startLocalServer({
        persistTo: join(work, "state"),
        envFiles: [envFile],
        vars: { ALLOW_ANONYMOUS_PUBLISH: "true", MIN_EXPIRES_IN_SECONDS: "1" },
      }).then((started) => (server = started)),
      launchChromium().then((launched) => (browser = launched)),
      ensureBuilt(),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = server!.url;
  let files = 0;
  let teams = 0;
  const cli = async (args: string[], extra: Record<string, string> = {}, input?: string) => {
    const run = await runCli([...args, "--json"], { cwd: work, env: { ...env, ...extra }, ...(input === undefined ? {} : { input }) });
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as unknown;
  };
  return {
    work,
    server: server!,
    browser: browser!,
    cli,
    run: (args) => runCli(args, { cwd: work, env }),
    stop,
    async publish(body, options = {}) {
      const dir = join(work, "files", String(++files));
      mkdirSync(dir);
      const file = join(dir, options.fileName ?? "handoff.md");
      writeFileSync(file, body);
      const args = ["publish", file, "--server", url, "--max-views", String(options.maxViews ?? 2), "--no-redact"];
      if (options.expires !== undefined) args.push("--expires", options.expires);
      if (options.teamToken !== undefined) args.push("--scope", "team");
      if (options.passphrase !== undefined) args.push("--passphrase");
      // An environment token is bound to HANDOFF_SERVER and applies only with it (docs/cli.md).
      const published = (await cli(args, options.teamToken === undefined ? {} : { HANDOFF_SERVER: url, HANDOFF_TEAM_TOKEN: options.teamToken }, options.passphrase)) as { url: string; id: string };
      return { url: published.url, id: published.id, fileName: basename(file), bytes: readFileSync(file) };
    },
    async teamToken() {
      const { stdout } = await promisify(execFile)(process.execPath, [join(repoRoot, "scripts", "team.js"), "create", `team-${++teams}`, "--server", url, "--json"], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HANDOFF_ADMIN_TOKEN: adminToken },
        timeout: 20_000,
      });
      return (JSON.parse(stdout) as { token: string }).token;
    },
  };
}

export interface Visit {
  page: Page;
  /** alert/confirm/prompt messages: any is a script the handoff smuggled in. */
  dialogs: string[];
  /** Console errors and uncaught exceptions (a CSP violation is one). */
  problems: string[];
  /** Every request the page made: URL, headers and body, to look for the key in. */
  requests: string[];
  /** Main-frame navigations after the first load. */
  navigations: string[];
  close(): Promise<void>;
}

/** Opens `url` in a fresh context (its own clipboard, colour scheme and size). */
export async function visit(browser: Browser, url: string, options: BrowserContextOptions = {}): Promise<Visit> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const seen: Visit = { page, dialogs: [], problems: [], requests: [], navigations: [], close: () => context.close() };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") seen.problems.push(message.text());
  });
  page.on("pageerror", (error) => seen.problems.push(error.message));
  context.on("request", (request) => seen.requests.push(`${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ""}`));
  let loaded = false;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && loaded) seen.navigations.push(frame.url());
  });
  await page.goto(url);
  loaded = true;
  return seen;
}

/** Waits for the page to settle on its metadata and Open button, or on a state page. */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector("#open:not([hidden]), #problem:not([hidden])");
}

/** Presses Open and waits for the document or a state page. */
export async function openIt(page: Page): Promise<void> {
  await page.click("#open");
  await page.waitForSelector("#document:not([hidden]), #problem:not([hidden])");
}

/** The state page shown, or null while the page shows none. */
export async function shownState(page: Page): Promise<string | null> {
  return (await page.locator("#problem").isVisible()) ? page.locator("#problem").getAttribute("data-state") : null;
}

export const keyOf = (url: string) => url.slice(url.indexOf("#") + 1);
export const withoutKey = (url: string) => url.slice(0, url.indexOf("#"));
