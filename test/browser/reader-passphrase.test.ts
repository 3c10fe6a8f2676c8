// A passphrase link in a real Chromium against a real `wrangler dev`: the page asks for the
// passphrase, a wrong one spends no view and lets the reader try again, the right one opens it,
// and the passphrase never leaves the browser.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CE_HANDOFF } from "./reader-fixtures.js";
import { type ReaderWorld, keyOf, startReaderWorld, visit } from "./reader-world.js";

let world: ReaderWorld;

beforeAll(async () => {
  world = await startReaderWorld();
});

afterAll(async () => {
  await world?.stop();
});

const PASSPHRASE = "tangerine quorum 7";
const viewsLeft = async (url: string) => ((await world.cli(["resume", url, "--peek"])) as { views_left: number; passphrase?: boolean }).views_left;

describe("a passphrase link in the browser", () => {
  it("asks for the passphrase; a wrong one spends no view; typing the right one opens the document", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 2, fileName: "fix-login.md", passphrase: PASSPHRASE });
    expect(((await world.cli(["resume", url, "--peek"])) as { passphrase?: boolean }).passphrase).toBe(true);
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await page.waitForSelector("#passphraseForm:not([hidden])");
    expect(await page.locator("#open").isVisible()).toBe(false);
    expect(await page.locator("#passphrase").getAttribute("type")).toBe("password");

    await page.fill("#passphrase", "tangerine quorum 8");
    await page.click("#passphraseForm button[type=submit]");
    await page.locator("#passphraseStatus", { hasText: "No view was spent" }).waitFor();
    expect(await page.locator("#document").isVisible()).toBe(false);
    expect(await viewsLeft(url)).toBe(2);

    await page.fill("#passphrase", PASSPHRASE);
    await page.click("#passphraseForm button[type=submit]");
    await page.waitForSelector("#document:not([hidden]), #problem:not([hidden])");
    expect(await page.locator("#problem").isVisible()).toBe(false);
    expect(await page.locator("h1").textContent()).toBe("Fix the login redirect");
    expect(await page.locator("#status").textContent()).toBe("Opened: this spent one view. 1 of 2 left. This tab keeps it, still encrypted, until you close the tab or press Forget this copy.");
    expect(await viewsLeft(url)).toBe(1);

    // Neither the key nor the passphrase went into any request; no CSP violation or script error.
    for (const request of visited.requests) {
      expect(request).not.toContain(keyOf(url));
      expect(request).not.toContain("tangerine");
    }
    // The refused read is one "Failed to load resource: 422" line, as every refused request logs.
    expect(visited.problems.filter((problem) => !/Failed to load resource: the server responded with a status of 422/.test(problem))).toEqual([]);
    expect(visited.problems).toHaveLength(1);
    expect(visited.navigations).toEqual([]);
    await visited.close();
  });
});
