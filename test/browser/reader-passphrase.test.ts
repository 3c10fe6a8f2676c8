// A passphrase link in a real Chromium against a real `wrangler dev`: the page asks for the
// passphrase, a wrong one spends no view and lets the reader try again, the right one opens it,
// and the passphrase never leaves the browser.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, httpStatusFor } from "../../shared/errors.js";
import { PASSPHRASE_LOCK_AFTER } from "../../worker/durable/access-state.js";
import { accessDenied } from "../../worker/handlers/access-errors.js";
import { STATE_WORDS } from "../../worker/page/reader/words.js";
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

describe("a passphrase link the server limits", () => {
  it("slowed down: the page keeps the form, says the try was not judged and to wait; locked: the page says to ask the sender", async () => {
    const { url, id } = await world.publish(CE_HANDOFF, { maxViews: 2, passphrase: PASSPHRASE });
    // Wrong tries straight to the API until the server answers one with a wait (the 5th wrong one
    // starts it; each judged one doubles it, so a slow machine gets there too): its real answer.
    const api = `${world.server.url}/v1/handoffs/${id}`;
    let slowed: { status: number; headers: Record<string, string>; body: string } | undefined;
    for (let i = 0; i < 12 && slowed === undefined; i++) {
      const res = await fetch(api, { headers: { "handoff-read-token": "W".repeat(43) } });
      if (res.status === 429) slowed = { status: res.status, headers: { "retry-after": res.headers.get("retry-after") ?? "1" }, body: await res.text() };
    }
    expect(slowed?.body).toMatch(/"passphrase_limit":"slowed"/);
    // The page's try is answered with it, however long the page takes to derive its key.
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await page.route(api, (route) => route.fulfill({ status: slowed!.status, headers: { ...slowed!.headers, "content-type": "application/json" }, body: slowed!.body }));
    await page.waitForSelector("#passphraseForm:not([hidden])");
    await page.fill("#passphrase", PASSPHRASE);
    await page.click("#passphraseForm button[type=submit]");
    await page.locator("#passphraseStatus", { hasText: "This try was not judged, and no view was spent." }).waitFor();
    expect(await page.locator("#passphraseStatus").textContent()).toBe(`${STATE_WORDS.slowed.what} ${STATE_WORDS.slowed.todo}`);
    expect(await page.locator("#passphraseForm").isVisible()).toBe(true);
    expect(await viewsLeft(url)).toBe(2);

    // Locked: the worker's own answer (20 wrong tries would take minutes of waits here).
    const locked = accessDenied({ ok: false, reason: "passphrase_locked", limit: { wrong: PASSPHRASE_LOCK_AFTER, judge_after: null, locked_at: Date.now() }, now: Date.now() });
    await page.unroute(api);
    await page.route(api, (route) => route.fulfill({ status: httpStatusFor(locked.reason), contentType: "application/json", body: JSON.stringify(errorBody(locked)) }));
    await page.click("#passphraseForm button[type=submit]");
    await page.waitForSelector("#problem:not([hidden])");
    expect(await page.locator("h1").textContent()).toBe(STATE_WORDS.locked.title);
    expect(await page.locator("#problem").textContent()).toContain("Ask the sender to reset it");
    expect(await viewsLeft(url)).toBe(2);
    await visited.close();
  });
});
