// The pages a person lands on, in a real Chromium against a real `wrangler dev`: the landing page
// at `/`, a passphrase link's page and a team link's page, in light and dark, at 320 px and on a
// desktop, under their real CSP: axe-core finds no violation at all, nothing scrolls sideways, and
// each page shows its one title and its one resume command. Screenshots go to the run's temp
// folder (removed after the run); set HANDOFF_SCREENSHOTS to a folder to keep them.
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resumeWords } from "../../worker/page/resume-words.js";
import { axeViolations, describeViolation } from "./axe.js";
import { CE_HANDOFF, MANIFEST } from "./reader-fixtures.js";
import { type ReaderWorld, openIt, settled, startReaderWorld, visit } from "./reader-world.js";

let world: ReaderWorld;

beforeAll(async () => {
  world = await startReaderWorld();
});

afterAll(async () => {
  await world?.stop();
});

const PASSPHRASE = "tangerine quorum 7";
const SHOTS = process.env.HANDOFF_SCREENSHOTS || join(tmpdir(), "page-screenshots");
/** How often `text` appears in what the page shows (hidden parts excluded). */
async function shownCount(page: Page, text: string): Promise<number> {
  // biome-ignore lint/performance/useDomNodeTextContent: what is shown, so hidden parts are left out.
  const shown = (await page.locator("body").innerText()).replace(/\s+/g, " ");
  return shown.split(text).length - 1;
}

describe("the landing page, a passphrase link and a team link: light and dark, 320 px and up", () => {
  let pages: { name: string; url: string; ready: (page: Page) => Promise<unknown> }[];

  beforeAll(async () => {
    const passphrase = await world.publish(CE_HANDOFF, { maxViews: 8, passphrase: PASSPHRASE });
    const team = await world.publish(CE_HANDOFF, { maxViews: 8, teamToken: await world.teamToken() });
    pages = [
      { name: "landing", url: `${world.server.url}/`, ready: (page) => page.waitForSelector("h1") },
      { name: "passphrase", url: passphrase.url, ready: (page) => page.waitForSelector("#passphraseForm:not([hidden])") },
      { name: "team", url: team.url, ready: settled },
    ];
    mkdirSync(SHOTS, { recursive: true });
  });

  for (const scheme of ["light", "dark"] as const) {
    for (const width of [320, 1280] as const) {
      it(`${scheme} at ${width} px: no axe violation, no sideways scrolling, the scheme's colours, no CSP violation`, async () => {
        const report: Record<string, string[]> = {};
        for (const { name, url, ready } of pages) {
          // The page's own CSP stays on: its stylesheet must apply under it.
          const visited = await visit(world.browser, url, { colorScheme: scheme, viewport: { width, height: 800 } });
          const { page } = visited;
          await ready(page);
          expect(await page.evaluate("document.documentElement.scrollWidth <= innerWidth"), `${name} scrolls sideways`).toBe(true);
          const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
          expect(background, name).toBe(scheme === "dark" ? "rgb(21, 23, 26)" : "rgb(255, 255, 255)");
          await page.screenshot({ path: join(SHOTS, `${name}-${scheme}-${width}.png`), fullPage: true });
          report[name] = (await axeViolations(page)).map(describeViolation);
          // A team link's metadata is refused to a browser: that one 401 is the page's only console line.
          const problems = visited.problems.filter((problem) => !(name === "team" && /status of 401/.test(problem)));
          expect(problems, name).toEqual([]);
          await visited.close();
        }
        expect(report).toEqual({ landing: [], passphrase: [], team: [] });
      });
    }
  }
});

describe("the landing page", () => {
  it("says what the server is and how to point the CLI at it, with this server's URL", async () => {
    const visited = await visit(world.browser, `${world.server.url}/`);
    const { page } = visited;
    expect(await page.title()).toBe("Handoff publishing server");
    expect(await page.locator("h1").allTextContents()).toEqual(["A Handoff publishing server"]);
    expect(await page.locator("pre").allTextContents()).toEqual([`handoff config set server ${world.server.url}`, `export HANDOFF_SERVER=${world.server.url}`]);
    expect(await page.locator("body").textContent()).toContain("stores only ciphertext");
    expect(await page.locator("script").count()).toBe(0);
    await visited.close();
  });
});

describe("the passphrase link's page", () => {
  it("labels the field (its accessible name is Passphrase) and says who may open the link, and how with the CLI", async () => {
    const { url, id } = await world.publish(CE_HANDOFF, { maxViews: 3, passphrase: PASSPHRASE });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await page.waitForSelector("#passphraseForm:not([hidden])");
    const field = page.getByLabel("Passphrase", { exact: true });
    expect(await field.getAttribute("id")).toBe("passphrase");
    expect(await field.isVisible()).toBe(true);
    expect(await page.locator("label[for=passphrase]").textContent()).toBe("Passphrase");
    expect(await page.locator("label[for=passphrase]").isVisible()).toBe(true);
    expect(await page.locator("#scope").textContent()).toBe("anyone with the full link and its passphrase");
    expect(await page.locator("#resume").textContent()).toBe(resumeWords("passphrase", id).command);
    expect(await page.locator("#cliHow").textContent()).toBe(resumeWords("passphrase", id).how);
    expect(await page.locator("#cliHow").textContent()).toContain("the passphrase at the second");
    expect(await shownCount(page, "handoff resume")).toBe(1);
    // The field types and opens as before, through its label.
    await field.fill(PASSPHRASE);
    await page.click("#passphraseForm button[type=submit]");
    await page.waitForSelector("#document:not([hidden]), #problem:not([hidden])");
    expect(await page.locator("#problem").isVisible()).toBe(false);
    await visited.close();
  });

  it("a link without a passphrase says anyone with the full link may open it", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 3 });
    const visited = await visit(world.browser, url);
    await settled(visited.page);
    expect(await visited.page.locator("#scope").textContent()).toBe("anyone with the full link");
    expect(await visited.page.locator("#resume").textContent()).toBe("handoff resume --paste");
    await visited.close();
  });
});

describe("the team link's page", () => {
  it("shows the command a teammate runs, handoff resume --team <id>, and no other", async () => {
    const { url, id } = await world.publish(CE_HANDOFF, { maxViews: 3, teamToken: await world.teamToken() });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    expect(await page.locator("#problem").getAttribute("data-state")).toBe("team");
    expect(await page.locator("#resume").textContent()).toBe(`handoff resume --team ${id}`);
    expect(await page.locator("#cliHow").textContent()).toBe(resumeWords("team", id).how);
    expect(await shownCount(page, "handoff resume")).toBe(1);
    await visited.close();
  });
});

describe("an opened handoff: one title, one resume command", () => {
  it("a body that opens with its own title shows that title once, as the page's h1", async () => {
    const titled = CE_HANDOFF.replace("# Current state", "# Fix the login redirect\n\n## Current state");
    const { url } = await world.publish(titled, { maxViews: 3 });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    expect(await page.locator("h1").allTextContents()).toEqual(["Fix the login redirect"]);
    expect(await shownCount(page, "Fix the login redirect")).toBe(1);
    expect(await page.locator("#rendered h2").first().textContent()).toBe("Current state");
    // View source still shows the file exactly as sent.
    expect(await page.locator("#source").textContent()).toBe(titled);
    expect(await shownCount(page, "handoff resume")).toBe(1);
    await visited.close();
  });

  it("a kernel manifest shows the page's resume command only, not the manifest's own resume prompt", async () => {
    const prompt = (JSON.parse(MANIFEST) as { resume: { prompt: string } }).resume.prompt;
    const { url } = await world.publish(MANIFEST, { maxViews: 3, fileName: "manifest.json" });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    expect(await page.locator("h1").allTextContents()).toEqual(["yaml-skill-unification"]);
    expect(await shownCount(page, prompt)).toBe(0);
    expect(await page.locator("#rendered h2", { hasText: /^Resume$/ }).count()).toBe(0);
    expect(await page.locator("#rendered h2", { hasText: "Outputs" }).count()).toBe(1);
    expect(await shownCount(page, "handoff resume")).toBe(1);
    expect(await page.locator("#source").textContent()).toContain(prompt);
    await visited.close();
  });
});
