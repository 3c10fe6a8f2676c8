// The share page after "Open", in a real Chromium against a real `wrangler dev`: the link's expiry
// and views stay on the page, every date is written one way, a reload shows the document again
// from this tab's copy without spending a view (and a new tab does not), and on a phone the
// Open button is on the first screen.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CE_HANDOFF } from "./reader-fixtures.js";
import { type ReaderWorld, keyOf, openIt, settled, shownState, startReaderWorld, visit } from "./reader-world.js";

let world: ReaderWorld;

beforeAll(async () => {
  world = await startReaderWorld();
});

afterAll(async () => {
  await world?.stop();
});

interface Peeked {
  expires_at: string;
  views_left: number | null;
}

const peek = async (url: string) => (await world.cli(["resume", url, "--peek"])) as Peeked;

/** The card's rows as label -> text. */
async function card(page: Page): Promise<Record<string, string | null>> {
  const labels = await page.locator("#card dt").allTextContents();
  const values = await page.locator("#card dd").allTextContents();
  return Object.fromEntries(labels.map((label, i) => [label, values[i] ?? null]));
}

/** Every <time> on the page that a reader can see: its words and its machine value. */
const visibleTimes = (page: Page) => page.locator("time:visible").evaluateAll((times) => times.map((time) => ({ text: time.textContent ?? "", datetime: time.getAttribute("datetime") ?? "" })));

/** After a reload: waits for the document, a state page, or the Open button (no copy was kept). */
const reopened = (page: Page) => page.waitForSelector("#document:not([hidden]), #problem:not([hidden]), #open:not([hidden])");

const PASSPHRASE = "plum harbour 12";

describe("an opened link", () => {
  it("still says when the link expires and how many views are left", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 3, expires: "2d" });
    const { expires_at } = await peek(url);
    const visited = await visit(world.browser, url, { timezoneId: "UTC" });
    const { page } = visited;
    await settled(page);
    await openIt(page);
    expect(await shownState(page)).toBeNull();
    const rows = await card(page);
    expect(rows["Views left"]).toBe("2 of 3");
    const expiry = page.locator("#card dd time").last();
    expect(await expiry.isVisible()).toBe(true);
    expect(await expiry.getAttribute("datetime")).toBe(expires_at);
    expect(rows["Link expires"]).toBe(await expiry.textContent());
    expect(visited.problems).toEqual([]);
    await visited.close();
  });

  it("writes every date one way, whatever the browser's locale, with the exact instant in <time datetime>", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 2, expires: "3d" });
    const { expires_at } = await peek(url);
    const format = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2} UTC(\+5:30)?$/;
    // A German locale in Kolkata's zone: neither may change the words, only the zone's offset.
    const visited = await visit(world.browser, url, { locale: "de-DE", timezoneId: "Asia/Kolkata" });
    const { page } = visited;
    await settled(page);
    const before = await visibleTimes(page);
    expect(before).toHaveLength(1);
    expect(before[0]!.datetime).toBe(expires_at);
    await openIt(page);
    const after = await visibleTimes(page);
    // The handoff's own created_at (09:15 UTC) and the link's expiry.
    expect(after.map((time) => time.datetime)).toEqual(["2026-11-30T09:15:00Z", expires_at]);
    expect(after[0]!.text).toBe("30 Nov 2026, 14:45 UTC+5:30");
    expect(after[1]!.text).toBe(before[0]!.text);
    for (const time of [...before, ...after]) expect(time.text).toMatch(format);
    // No date on the page is written any other way (a locale string, a bare ISO value); the CLI
    // section is left out, as its link holds the server's address and port.
    const text = (await page.locator("main > :not(#cli)").allInnerTexts()).join("\n").replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC(\+5:30)?/g, "");
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,2}:\d{2}/);
    await visited.close();
  });
});

describe("a reload", () => {
  it("shows the document again from this tab's copy and spends no view; a new tab does not have it", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 3 });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    expect((await peek(url)).views_left).toBe(2);

    await page.reload();
    await reopened(page);
    expect(await shownState(page)).toBeNull();
    expect(await page.locator("h1").textContent()).toBe("Fix the login redirect");
    expect(await page.locator("#source").textContent()).toBe(CE_HANDOFF);
    expect(await page.locator("#status").textContent()).toMatch(/^Opened earlier in this tab: showing it again spent no view\. 2 of 3 left\./);
    expect((await card(page))["Views left"]).toBe("2 of 3");
    expect((await peek(url)).views_left).toBe(2);
    // The only body request of the whole visit was the first Open.
    expect(visited.requests.filter((request) => /\/v1\/handoffs\/[^/ ]+ /.test(request))).toHaveLength(1);

    // What the tab keeps: the envelope, never the text and never the key; nothing in localStorage.
    const stored = (await page.evaluate("JSON.stringify({ session: { ...sessionStorage }, local: { ...localStorage } })")) as string;
    expect(stored).not.toContain("Fix the login redirect");
    expect(stored).not.toContain(keyOf(url));
    expect(JSON.parse(stored).local).toEqual({});

    const other = await page.context().newPage();
    await other.goto(url);
    await settled(other);
    expect(await other.locator("#open").isVisible()).toBe(true);
    expect(await other.locator("#document").isVisible()).toBe(false);
    expect(visited.problems).toEqual([]);
    await visited.close();
  });

  it("after the last view, shows the document again instead of 'used up'", async () => {
    const { url } = await world.publish("read once, reload twice", { maxViews: 1 });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    await page.reload();
    await reopened(page);
    expect(await shownState(page)).toBeNull();
    expect(await page.locator("#source").textContent()).toBe("read once, reload twice");
    expect((await card(page))["Views left"]).toBe("0 of 1");
    expect(await page.locator("#card dd time").last().getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await visited.close();
  });

  it("Forget this copy drops it: the page asks to open again, and a revoked link drops it too", async () => {
    const { url, id } = await world.publish(CE_HANDOFF, { maxViews: 3 });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    await Promise.all([page.waitForEvent("load"), page.click("#forget")]);
    await settled(page);
    expect(await page.locator("#open").isVisible()).toBe(true);
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    expect((await peek(url)).views_left).toBe(2);

    await openIt(page);
    expect(await page.evaluate("sessionStorage.length")).toBe(1);
    await world.cli(["revoke", id]);
    await page.reload();
    await settled(page);
    expect(await shownState(page)).toBe("revoked");
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    await visited.close();
  });

  it("of a passphrase link asks for the passphrase again and opens this tab's copy with it, spending no view", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 2, passphrase: PASSPHRASE });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await page.waitForSelector("#passphraseForm:not([hidden])");
    await page.fill("#passphrase", PASSPHRASE);
    await page.click("#passphraseForm button[type=submit]");
    await page.waitForSelector("#document:not([hidden])");
    expect((await peek(url)).views_left).toBe(1);

    await page.reload();
    await page.waitForSelector("#passphraseForm:not([hidden])");
    expect(await page.locator("#passphraseForm button[type=submit]").textContent()).toBe("Show it again");
    await page.fill("#passphrase", "plum harbour 13");
    await page.click("#passphraseForm button[type=submit]");
    await page.locator("#passphraseStatus", { hasText: "No view was spent" }).waitFor();
    await page.fill("#passphrase", PASSPHRASE);
    await page.click("#passphraseForm button[type=submit]");
    await page.waitForSelector("#document:not([hidden]), #problem:not([hidden])");
    expect(await shownState(page)).toBeNull();
    expect(await page.locator("h1").textContent()).toBe("Fix the login redirect");
    expect((await peek(url)).views_left).toBe(1);
    expect(((await page.evaluate("JSON.stringify({ ...sessionStorage })")) as string).includes("plum")).toBe(false);
    await visited.close();
  });
});

describe("on a 390 x 844 phone", () => {
  it.each([
    ["Open", {}, "#open"],
    ["the passphrase form's Open", { passphrase: PASSPHRASE }, "#passphraseForm button[type=submit]"],
  ])("%s is on the first screen, without scrolling", async (_label, options, selector) => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 2, ...options });
    const visited = await visit(world.browser, url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    const { page } = visited;
    await page.waitForSelector(`${selector}:visible`);
    expect(await page.evaluate("scrollY")).toBe(0);
    const box = await page.locator(selector).boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height, `the button's bottom edge at ${box!.y + box!.height} px`).toBeLessThanOrEqual(844);
    await visited.close();
  });
});
