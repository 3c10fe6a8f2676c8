// The share page against hostile handoffs, and its accessibility: an XSS corpus in every
// frontmatter field and the body never runs; axe-core finds no serious or critical violation in
// light or dark; screenshots at phone and desktop widths go to test/browser/artifacts/ (ignored).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { axeViolations, describeViolation } from "./axe.js";
import { CE_HANDOFF, MANIFEST } from "./reader-fixtures.js";
import { type ReaderWorld, keyOf, openIt, settled, startReaderWorld, visit, withoutKey } from "./reader-world.js";

let world: ReaderWorld;

beforeAll(async () => {
  world = await startReaderWorld();
});

afterAll(async () => {
  await world?.stop();
});

/** Each payload would show a dialog, load something or add an element if it were ever parsed. */
const PAYLOADS = [
  `<script>alert("p1")</script>`,
  `<img src=x onerror="alert('p2')">`,
  `<svg onload="alert('p3')"><script>alert('p3b')</script></svg>`,
  `<a href="javascript:alert('p4')">click</a>`,
  `<base href="https://evil.invalid/">`,
  `<meta http-equiv="refresh" content="0;url=https://evil.invalid/">`,
  `<iframe srcdoc="<script>alert('p5')</script>"></iframe>`,
  `"><details open ontoggle=alert('p6')>`,
  `<style>body{display:none}</style>`,
  `<!-- <img src=x onerror=alert('p7')> -->`,
];

// created_at is left out: the CLI refuses to seal a handoff whose created_at is not a timestamp.
const FIELDS = ["title", "summary", "resume_focus", "repository", "branch", "head", "cwd", "worktree_path", "repo_root_sha"];

const MARKDOWN_TRICKS = [
  "[plain js](javascript:alert('m1'))",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgnbTInKTwvc2NyaXB0Pg==)",
  "[vb](vbscript:msgbox('m3'))",
  "[entity](java&#115;cript:alert('m4'))",
  "[tab](java\tscript:alert('m5'))",
  "[upper](JAVASCRIPT:alert('m6'))",
  "![image](javascript:alert('m7'))",
  "![attr](x\" onerror=\"alert('m8'))",
  "![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoJ205Jyk+)",
  "<javascript:alert('m10')>",
  "[ref link][r]",
  "",
  "[r]: javascript:alert('m11')",
  "",
  "`<script>alert('m12')</script>`",
  "",
  "```html\n<script>alert('m13')</script>\n```",
  "",
  "| <b onmouseover=alert('m14')>x</b> | y |\n|---|---|\n| <img src=x onerror=alert('m15')> | z |",
  "",
  "[ok](https://example.com/safe)",
];

function hostileHandoff(): string {
  const all = PAYLOADS.join(" ");
  const lines = ["---", `artifact_contract: "ce-handoff/v1"`, `created_at: "2026-11-30T09:15:00Z"`];
  for (const field of FIELDS) lines.push(`${field}: ${JSON.stringify(all)}`);
  // The heading differs from the title, so it is rendered (a heading equal to the title is not).
  lines.push(`keywords: ${JSON.stringify(PAYLOADS)}`, "---", "", `# Heading ${all}`, "", ...PAYLOADS.map((payload) => `${payload}\n`), ...MARKDOWN_TRICKS, "");
  return lines.join("\n");
}

/** Elements no handoff may add, anywhere on the page, and attributes that would run script. */
async function injected(page: Page): Promise<Record<string, number>> {
  const count = (selector: string) => page.locator(selector).count();
  return {
    scripts: await count("script"),
    styles: await count("style"),
    metas: await count("meta"),
    // The page's own passphrase form (hidden unless the link needs one) is not the handoff's.
    hostile: await count("img, svg, iframe, base, details, object, embed, form:not(#meta > form), input:not(#meta input), link, #document style, #document meta"),
    handlers: await count("[onerror], [onload], [ontoggle], [onmouseover], [onclick]"),
    unsafeLinks: await count("a[href]:not([href^='http://']):not([href^='https://'])"),
  };
}

/**
 * Resolves at the page's own idle point: two frames painted, then an idle period, then one more
 * task. Whatever a payload deferred (an ontoggle event, a zero-delay refresh or timer, a load
 * handler) was queued before and has run by then, however slow the machine; a navigation on the
 * way rejects this, which fails the test.
 */
function pageIdle(page: Page): Promise<void> {
  return page.evaluate(() => {
    // Runs in the page: its DOM timers, which the Node typings of this file do not declare.
    const page = globalThis as unknown as { requestAnimationFrame(run: () => void): void; requestIdleCallback(run: () => void, options: { timeout: number }): void };
    return new Promise<void>((resolve) => page.requestAnimationFrame(() => page.requestAnimationFrame(() => page.requestIdleCallback(() => setTimeout(resolve, 0), { timeout: 10_000 }))));
  });
}

describe("a hostile handoff", () => {
  it("never runs: no dialog, no script error, no navigation, no injected element; the source is exact", async () => {
    const body = hostileHandoff();
    const { url } = await world.publish(body, { maxViews: 3 });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    expect(await page.locator("#problem").isVisible()).toBe(false);
    // Any deferred payload (a refresh, an ontoggle, a timer) would have fired by the page's idle point.
    await pageIdle(page);
    await page.hover("#rendered table");

    expect(await injected(page)).toEqual({ scripts: 1, styles: 1, metas: 4, hostile: 0, handlers: 0, unsafeLinks: 0 });
    const links = await page.locator("#rendered a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(links).toEqual(["https://example.com/safe"]);
    expect(await page.locator("h1").textContent()).toBe(PAYLOADS.join(" "));
    expect(await page.locator("#card .keywords li").allTextContents()).toEqual(PAYLOADS);
    expect(await page.locator("#rendered").textContent()).toContain(`<script>alert("p1")</script>`);
    await page.click("#viewSource");
    expect(await page.locator("#source").textContent()).toBe(body);
    expect(page.url()).toBe(url);

    expect(visited.dialogs).toEqual([]);
    expect(visited.navigations).toEqual([]);
    expect(visited.problems).toEqual([]);
    expect(visited.requests.filter((request) => !request.startsWith(world.server.url))).toEqual([]);
    expect(visited.requests.filter((request) => request.includes(keyOf(url)))).toEqual([]);
    await visited.close();
  });

  it("a hostile kernel manifest renders as text too", async () => {
    const manifest = JSON.parse(MANIFEST) as {
      identity: { name: string };
      objective: { goal: string; success_conditions: string[] };
      warnings?: string[];
    };
    manifest.identity.name = PAYLOADS[1]!;
    manifest.objective.goal = PAYLOADS.join(" ");
    manifest.objective.success_conditions = [...PAYLOADS, ...MARKDOWN_TRICKS.filter(Boolean)];
    manifest.warnings = PAYLOADS;
    const { url } = await world.publish(JSON.stringify(manifest, null, 2), { fileName: "hostile.json" });
    const visited = await visit(world.browser, url);
    await settled(visited.page);
    await openIt(visited.page);
    await pageIdle(visited.page);
    expect(await visited.page.locator("h1").textContent()).toBe(PAYLOADS[1]);
    expect(await injected(visited.page)).toEqual({ scripts: 1, styles: 1, metas: 4, hostile: 0, handlers: 0, unsafeLinks: 0 });
    expect(visited.dialogs).toEqual([]);
    expect(visited.navigations).toEqual([]);
    expect(visited.problems).toEqual([]);
    await visited.close();
  });
});

const ARTIFACTS = join(repoRoot, "test", "browser", "artifacts");

/** axe-core's serious and critical findings for the page as it is now; every finding goes to `report`. */
async function seriousViolations(page: Page, report: string): Promise<string[]> {
  // The context bypasses the CSP, so axe's own checks are not blocked by Trusted Types.
  const violations = await axeViolations(page);
  writeFileSync(
    report,
    `${JSON.stringify(
      violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.length })),
      null,
      2,
    )}\n`,
  );
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map(describeViolation);
}

describe("accessibility and look, light and dark, phone and desktop", () => {
  const schemes = ["light", "dark"] as const;
  const widths = [390, 1280] as const;
  let ceUrl: string;
  let kernelUrl: string;

  beforeAll(async () => {
    ceUrl = (await world.publish(CE_HANDOFF, { maxViews: 8 })).url;
    kernelUrl = (await world.publish(MANIFEST, { maxViews: 8, fileName: "manifest.json" })).url;
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  for (const scheme of schemes) {
    for (const width of widths) {
      it(`${scheme} at ${width} px: no serious or critical axe violation on the document, the manifest, a link and a state page`, async () => {
        const options = { colorScheme: scheme, viewport: { width, height: 900 }, bypassCSP: true };
        const report: Record<string, string[]> = {};
        const pages: [string, string, boolean][] = [
          ["document", ceUrl, true],
          ["manifest", kernelUrl, true],
          ["before-open", ceUrl, false],
          ["missing-key", withoutKey(ceUrl), false],
        ];
        for (const [name, url, open] of pages) {
          const visited = await visit(world.browser, url, options);
          await settled(visited.page);
          if (open) await openIt(visited.page);
          expect(await visited.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")).toBe(scheme === "dark");
          // No horizontal scrolling at any width: the page fits the phone.
          expect(await visited.page.evaluate("document.documentElement.scrollWidth <= innerWidth")).toBe(true);
          // The scheme reaches the page's own colours, not only the media query.
          const background = await visited.page.evaluate("getComputedStyle(document.body).backgroundColor");
          expect(background).toBe(scheme === "dark" ? "rgb(21, 23, 26)" : "rgb(255, 255, 255)");
          await visited.page.screenshot({ path: join(ARTIFACTS, `reader-${name}-${scheme}-${width}.png`), fullPage: true });
          report[name] = await seriousViolations(visited.page, join(ARTIFACTS, `axe-${name}-${scheme}-${width}.json`));
          await visited.close();
        }
        expect(report).toEqual({ document: [], manifest: [], "before-open": [], "missing-key": [] });
      });
    }
  }

  it("fits 360 px without sideways scrolling, document and manifest alike", async () => {
    for (const url of [ceUrl, kernelUrl]) {
      const visited = await visit(world.browser, url, { viewport: { width: 360, height: 740 } });
      await settled(visited.page);
      await openIt(visited.page);
      expect(await visited.page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(360);
      await visited.close();
    }
  });

  it("is keyboard reachable in reading order with a visible focus", async () => {
    const visited = await visit(world.browser, ceUrl);
    const { page } = visited;
    await settled(page);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("open");
    expect(await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")).toBe("solid");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#document:not([hidden])");
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press("Tab");
      order.push((await page.evaluate("document.activeElement.id || document.activeElement.textContent")) as string);
    }
    expect(order).toEqual(["copyResume", "download", "copy", "viewSource", "forget", "the OAuth notes", "the design doc"]);
    expect(await page.locator("main").count()).toBe(1);
    expect(await page.locator("header.site").count()).toBe(1);
    expect(await page.locator("h1").count()).toBe(1);
    await visited.close();
  });
});
