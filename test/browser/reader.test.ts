// The share page in a real Chromium against a real `wrangler dev`, with handoffs published by the
// built CLI: what a teammate without the CLI sees, and that the handoff stays text.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../../scripts/local-server.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { launchChromium } from "./launch.js";

let work: string;
let env: Record<string, string>;
let server: LocalServer | undefined;
let browser: Browser | undefined;
let files = 0;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "handoff-reader-"));
  const home = join(work, "home");
  for (const dir of [home, join(work, "tmp"), join(work, "store")]) mkdirSync(dir, { mode: 0o700 });
  env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), TMPDIR: join(work, "tmp"), HANDOFF_ROOT: join(work, "store") };
  // Assigned as each comes up, so afterAll stops whatever started even if another part failed.
  await Promise.all([
    startLocalServer({ persistTo: join(work, "state"), vars: { ALLOW_ANONYMOUS_PUBLISH: "true" } }).then((started) => (server = started)),
    launchChromium().then((launched) => (browser = launched)),
    ensureBuilt(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<unknown> {
  const run = await runCli([...args, "--json"], { cwd: work, env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

/** Publishes `body` with the built CLI; answers the share URL and the file's name. */
async function publish(body: string, maxViews: number): Promise<{ url: string; fileName: string }> {
  const file = join(work, `handoff-${++files}.md`);
  writeFileSync(file, body);
  const published = (await cli(["publish", file, "--server", server!.url, "--max-views", String(maxViews)])) as { url: string };
  return { url: published.url, fileName: basename(file) };
}

/** Views left, asked the way a CLI user would, without spending one. */
async function viewsLeft(url: string): Promise<number | null> {
  return ((await cli(["resume", url, "--peek"])) as { views_left: number | null }).views_left;
}

interface Visit {
  page: Page;
  /** alert/confirm/prompt messages: any is a script the handoff smuggled in. */
  dialogs: string[];
  /** Console errors and uncaught exceptions (a CSP violation is one). */
  problems: string[];
  /** Every request URL the page made after the navigation. */
  requests: string[];
}

async function visit(url: string): Promise<Visit> {
  const page = await browser!.newPage();
  const seen: Visit = { page, dialogs: [], problems: [], requests: [] };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") seen.problems.push(message.text());
  });
  page.on("pageerror", (error) => seen.problems.push(error.message));
  page.on("request", (request) => seen.requests.push(request.url()));
  await page.goto(url);
  return seen;
}

/** Waits for the page to settle on its metadata, or on an error. */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector("#open:not([hidden]), #error:not([hidden])");
}

async function openIt(page: Page): Promise<void> {
  await page.click("#open");
  await page.waitForSelector("#document:not([hidden]), #error:not([hidden])");
}

const text = (page: Page, id: string) => page.locator(`#${id}`).textContent();
const visible = (page: Page, id: string) => page.locator(`#${id}`).isVisible();

describe("the share page in a browser", () => {
  it("shows the metadata without spending a view, then on Open the exact text, its metadata and the resume command", async () => {
    const body = "# Fix the login\n\n- [ ] tabs\tand ünïcødé ✓\n  indented\r\nlast line, no newline";
    const { url, fileName } = await publish(body, 2);
    const { page, problems, requests } = await visit(url);
    await settled(page);
    expect(await text(page, "views")).toBe("2 of 2");
    expect(await text(page, "scope")).toBe("anyone with the full link");
    expect(await viewsLeft(url)).toBe(2);

    await openIt(page);
    expect(await visible(page, "error")).toBe(false);
    expect(await text(page, "text")).toBe(body);
    expect(await text(page, "fileName")).toBe(fileName);
    expect(await text(page, "format")).not.toBe("");
    expect(await text(page, "resume")).toBe(`handoff resume '${url}'`);
    expect(await text(page, "views")).toBe("1 of 2");
    expect(await visible(page, "open")).toBe(false);
    expect(await viewsLeft(url)).toBe(1);

    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server!.url });
    await page.click("#copy");
    await page.waitForSelector("#copyStatus:has-text('Copied.')");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(body);

    const key = url.slice(url.indexOf("#") + 1);
    expect(requests.filter((request) => request.includes(key))).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(server!.url))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows markup in the handoff as text and never runs it", async () => {
    const body = "# Notes\n<script>alert(1)</script>\n<img src=x onerror=\"alert(2)\">\n<b>bold?</b> <iframe src=\"javascript:alert(3)\"></iframe>\n";
    const { url } = await publish(body, 2);
    const { page, dialogs, problems } = await visit(url);
    await settled(page);
    await openIt(page);
    expect(await text(page, "text")).toBe(body);
    const count = (selector: string) => page.locator(selector).count();
    expect({ scripts: await count("script"), injected: await count("img, b, iframe"), inText: await count("#text *") }).toEqual({
      scripts: 1,
      injected: 0,
      inText: 0,
    });
    expect(dialogs).toEqual([]);
    // Nothing was parsed, so nothing even tried to run and got blocked by the CSP.
    expect(problems).toEqual([]);
    await page.close();
  });

  it("says the key is wrong when it does not decrypt (after spending the view it took to find out)", async () => {
    const { url } = await publish("secret plan", 2);
    const wrongKey = randomBytes(32).toString("base64url");
    const { page } = await visit(`${url.slice(0, url.indexOf("#"))}#${wrongKey}`);
    await settled(page);
    await openIt(page);
    expect(await text(page, "error")).toMatch(/cannot be decrypted: the key in the link \(after #\) is wrong/);
    expect(await visible(page, "document")).toBe(false);
    expect(await page.content()).not.toContain("secret plan");
    await page.close();
  });

  it.each([
    ["no key at all", "", /has no key/],
    ["a damaged key", "#not-a-key", /cannot be decrypted: the key in the link/],
  ])("with %s: shows the metadata and the problem, offers no Open, spends nothing", async (_label, fragment, problem) => {
    const { url } = await publish("body", 2);
    const { page } = await visit(url.slice(0, url.indexOf("#")) + fragment);
    await settled(page);
    expect(await text(page, "error")).toMatch(problem);
    expect(await text(page, "views")).toBe("2 of 2");
    expect(await visible(page, "open")).toBe(false);
    expect(await viewsLeft(url)).toBe(2);
    await page.close();
  });

  it("says so when the views are used up", async () => {
    const { url } = await publish("read once", 1);
    const { page } = await visit(url);
    await settled(page);
    await openIt(page);
    expect(await text(page, "text")).toBe("read once");
    await page.reload();
    await settled(page);
    expect(await text(page, "error")).toMatch(/used up: all its views have been spent/);
    expect(await visible(page, "meta")).toBe(false);
    expect(await visible(page, "open")).toBe(false);
    await page.close();
  });
});
