// The share page in a real Chromium against a real `wrangler dev`, with handoffs published by the
// built CLI: the document a teammate without the CLI reads, its actions, and every state page.
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CE_HANDOFF, HEAD, MANIFEST } from "./reader-fixtures.js";
import { type ReaderWorld, keyOf, openIt, settled, shownState, startReaderWorld, visit, withoutKey } from "./reader-world.js";

let world: ReaderWorld;

beforeAll(async () => {
  world = await startReaderWorld();
});

afterAll(async () => {
  await world?.stop();
});

describe("an opened handoff", () => {
  it("shows a ce-handoff as a document: header card, rendered Markdown, exact source; and spends one view", async () => {
    const { url } = await world.publish(CE_HANDOFF, { maxViews: 2, fileName: "fix-login.md" });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    expect(await page.locator("#views").textContent()).toBe("2 of 2");
    await openIt(page);
    expect(await shownState(page)).toBeNull();

    expect(await page.locator("h1").textContent()).toBe("Fix the login redirect");
    expect(await page.locator("#summary").textContent()).toBe("Sessions expire during OAuth callback; refresh is half done");
    const labels = await page.locator("#card dt").allTextContents();
    const values = await page.locator("#card dd").allTextContents();
    const card = Object.fromEntries(labels.map((label, i) => [label, values[i]]));
    expect(card).toMatchObject({
      Repository: "github.com/example/app",
      Branch: "fix/login-redirect",
      HEAD: HEAD.slice(0, 12),
      "Resume focus": "finish token refresh in session.ts",
      Keywords: "authoauth",
      File: "fix-login.md",
    });
    expect(await page.locator("#card code[title]").first().getAttribute("title")).toBe(HEAD);
    const created = page.locator("#card time").first();
    expect(await created.getAttribute("datetime")).toBe("2026-11-30T09:15:00Z");
    expect(await created.getAttribute("title")).toBe("2026-11-30T09:15:00Z (UTC)");
    expect(await created.textContent()).not.toBe("");

    const body = page.locator("#rendered");
    expect(await body.locator("h2").first().textContent()).toBe("Current state");
    expect(await body.locator("ul > li").count()).toBe(3);
    expect(await body.locator("li").first().textContent()).toBe("☑ reproduce with an expired session");
    expect(await body.locator("pre > code.language-ts").textContent()).toBe("const session = await refresh(token);");
    expect(await body.locator("p code").first().textContent()).toBe("state");
    const links = await body.locator("a").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("rel")]));
    expect(links).toEqual([
      ["the OAuth notes", "https://example.com/oauth", "noopener noreferrer nofollow"],
      ["the design doc", `${world.server.url}/h/docs/design.md`, "noopener noreferrer nofollow"],
    ]);
    expect(await body.textContent()).not.toContain("artifact_contract");

    expect(await page.locator("#source").isVisible()).toBe(false);
    await page.click("#viewSource");
    expect(await page.locator("#source").isVisible()).toBe(true);
    expect(await page.locator("#rendered").isVisible()).toBe(false);
    expect(await page.locator("#viewSource").getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator("#source").textContent()).toBe(CE_HANDOFF);
    await page.click("#viewSource");
    expect(await page.locator("#rendered").isVisible()).toBe(true);

    expect(await page.locator("#status").textContent()).toBe("Opened: this spent one view. 1 of 2 left. This tab keeps it, still encrypted, until you close the tab or press Forget this copy.");
    expect(((await world.cli(["resume", url, "--peek"])) as { views_left: number }).views_left).toBe(1);
    expect(visited.problems).toEqual([]);
    await visited.close();
  });

  it("shows a kernel manifest as its sections, NOT AUTHORITATIVE, with the JSON to download", async () => {
    const { url, bytes } = await world.publish(MANIFEST, { fileName: "yaml-skill-unification.json" });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    expect(await page.locator("h1").textContent()).toBe("yaml-skill-unification");
    expect(await page.locator("#summary").textContent()).toBe("Finish the yaml-skill-unification commission (docs, release, chronicle)");
    expect(await page.locator("#notice").textContent()).toContain("NOT AUTHORITATIVE");
    const headings = await page.locator("#rendered :is(h2, h3, h4)").allTextContents();
    for (const section of ["Objective", "Success conditions", "Phases", "Decisions accepted", "Warnings (failed approaches, do not re-explore)", "Execution", "Pinned artifacts", "Context"]) {
      expect(headings).toContain(section);
    }
    const phases = await page.locator("#rendered :is(h2, h3):text-is('Phases') + ul > li").allTextContents();
    expect(phases[0]).toMatch(/^☑|recon inherited/);
    expect(phases.join("\n")).toMatch(/docs_release required/);
    expect(await page.locator("#rendered").textContent()).toContain("no compatibility aliases");
    expect(await page.locator("#rendered").textContent()).toMatch(/Policy: ?\w+/);
    expect(await page.locator("#download").textContent()).toBe("Download JSON");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    expect(download.suggestedFilename()).toBe("yaml-skill-unification.json");
    expect(readFileSync((await download.path())!)).toEqual(bytes);
    await page.click("#viewSource");
    expect(await page.locator("#source").textContent()).toBe(MANIFEST);
    expect(visited.problems).toEqual([]);
    await visited.close();
  });

  it("copies the exact resume command and text, downloads the exact bytes, and never sends the key", async () => {
    const body = "# Notes\r\n\ttabs, CRLF and a trailing space \nno newline at the end";
    const { url, fileName, bytes } = await world.publish(body, { fileName: "notes v2.md" });
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.server.url });
    await settled(page);
    await openIt(page);

    await page.click("#copyResume");
    await page.waitForSelector("#actionStatus:has-text('Copied the resume command.')");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe("handoff resume --paste");
    await page.click("#copy");
    await page.waitForSelector("#actionStatus:has-text('Copied the text.')");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(body);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    expect(download.suggestedFilename()).toBe(fileName);
    expect(readFileSync((await download.path())!)).toEqual(bytes);

    expect(visited.requests.filter((request) => request.includes(keyOf(url)))).toEqual([]);
    expect(visited.requests.filter((request) => !request.startsWith(world.server.url))).toEqual([]);
    expect(visited.requests.length).toBeGreaterThanOrEqual(3);
    expect(visited.problems).toEqual([]);
    await visited.close();
  });

  it("without clipboard permission, selects what it could not copy and says how to copy it", async () => {
    // No final newline: a selection's text ends where the rendered <pre> does.
    const { url } = await world.publish("# Plan\n\nstep one");
    const visited = await visit(world.browser, url);
    const { page } = visited;
    await settled(page);
    await openIt(page);
    await page.evaluate("navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))");
    await page.click("#copyResume");
    await page.waitForSelector("#actionStatus:has-text('Selected the resume command')");
    expect(await page.evaluate("getSelection().toString()")).toBe("handoff resume --paste");
    await page.click("#copy");
    await page.waitForSelector("#actionStatus:has-text('Selected the text')");
    expect(await page.evaluate("getSelection().toString()")).toBe("# Plan\n\nstep one");
    expect(await page.locator("#source").isVisible()).toBe(true);
    expect(await page.locator("#viewSource").getAttribute("aria-expanded")).toBe("true");
    await visited.close();
  });

  it("shows a frontmatter that is not the CLI's flat form as written, and names the card by the file", async () => {
    const body = "---\ntitle: plain YAML\nkeywords:\n  - a\n---\n## Notes\n\nAs *written*.\n";
    const { url } = await world.publish(body, { fileName: "yaml-notes.md" });
    const visited = await visit(world.browser, url);
    await settled(visited.page);
    await openIt(visited.page);
    expect(await visited.page.locator("h1").textContent()).toBe("yaml-notes.md");
    expect(await visited.page.locator("#frontmatterText").textContent()).toBe("title: plain YAML\nkeywords:\n  - a\n");
    // "##" is this body's top level, so it sits right below the page's h1.
    expect(await visited.page.locator("#rendered h2").textContent()).toBe("Notes");
    expect(await visited.page.locator("#rendered em").textContent()).toBe("written");
    await visited.close();
  });
});

/** Waits (bounded) until `check` holds; answers whether it did. */
async function eventually(check: () => Promise<boolean>, limitMs = 30_000): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return check();
}

/** Opens `url`, optionally presses Open, and answers the state page shown with its words. */
async function stateOf(url: string, press: boolean): Promise<{ state: string | null; text: string; heading: string; cli: boolean }> {
  const visited = await visit(world.browser, url);
  const { page } = visited;
  await settled(page);
  if (press) await openIt(page);
  const result = {
    state: await shownState(page),
    text: (await page.locator("#problem").textContent()) ?? "",
    heading: (await page.locator("h1").textContent()) ?? "",
    cli: await page.locator("#cli").isVisible(),
  };
  // No stack, no raw JSON, no script error on any state page.
  const all = (await page.locator("main").textContent()) ?? "";
  expect(all).not.toMatch(/\{"error"|at \w+ \(|HandoffError|undefined/);
  expect(visited.problems.filter((problem) => !/Failed to load resource/.test(problem))).toEqual([]);
  await visited.close();
  return result;
}

describe("state pages, each reached for real", () => {
  it("expired", async () => {
    const { url } = await world.publish("short-lived", { expires: "1s" });
    // Peeking spends no view, so polling it is free.
    expect(await eventually(async () => (await world.run(["resume", url, "--peek", "--json"])).stdout.includes('"expired"'))).toBe(true);
    const shown = await stateOf(url, false);
    expect(shown).toMatchObject({ state: "expired", heading: "This link has expired", cli: false });
    expect(shown.text).toMatch(/Ask the sender for a new link/);
  });

  it("revoked", async () => {
    const { url, id } = await world.publish("to be revoked");
    await world.cli(["revoke", id]);
    expect(await stateOf(url, false)).toMatchObject({ state: "revoked", heading: "This link was revoked" });
  });

  it("used up (the last view spent in this browser)", async () => {
    const { url } = await world.publish("read once", { maxViews: 1 });
    const first = await visit(world.browser, url);
    await settled(first.page);
    await openIt(first.page);
    expect(await first.page.locator("#source").textContent()).toBe("read once");
    await first.close();
    expect(await stateOf(url, false)).toMatchObject({ state: "exhausted", heading: "This link is used up" });
  });

  it("not found", async () => {
    const { url, id } = await world.publish("exists");
    const other = url.replace(id, randomBytes(16).toString("base64url"));
    expect(await stateOf(other, false)).toMatchObject({ state: "not_found", heading: "There is no handoff at this link" });
  });

  it.each([
    ["missing", "", "missing_key", "This link has no key"],
    ["malformed", "#not-a-key", "bad_key", "The key in this link is damaged"],
  ])("a %s key: the state page, no Open, no view spent", async (_label, fragment, state, heading) => {
    const { url } = await world.publish("body");
    const shown = await stateOf(withoutKey(url) + fragment, false);
    expect(shown).toMatchObject({ state, heading });
    expect(shown.text).toMatch(/No view was spent/);
    expect(((await world.cli(["resume", url, "--peek"])) as { views_left: number }).views_left).toBe(2);
  });

  it("a wrong key", async () => {
    const { url } = await world.publish("secret plan");
    const shown = await stateOf(`${withoutKey(url)}#${randomBytes(32).toString("base64url")}`, true);
    expect(shown).toMatchObject({ state: "wrong_key", heading: "This handoff cannot be decrypted" });
    expect(shown.text).not.toContain("secret plan");
    // Key-bound reads: a wrong key proves nothing, so the server spends no view on it.
    expect(((await world.cli(["resume", url, "--peek"])) as { views_left: number }).views_left).toBe(2);
  });

  it("a 1-view link cannot be spent with the id alone, and the page still opens it", async () => {
    const { url } = await world.publish("only for the key holder", { maxViews: 1 });
    const api = withoutKey(url).replace(/\/h\/([^/]+)$/, "/v1/handoffs/$1");
    const idAlone = await fetch(api, { signal: AbortSignal.timeout(10_000) });
    expect(idAlone.status).toBe(422);
    await idAlone.body?.cancel();
    expect(((await world.cli(["resume", url, "--peek"])) as { views_left: number }).views_left).toBe(1);
    const visited = await visit(world.browser, url);
    await settled(visited.page);
    await openIt(visited.page);
    expect(await visited.page.locator("#source").textContent()).toBe("only for the key holder");
    expect(await visited.page.locator("#status").textContent()).toBe(
      "Opened: this spent one view. 0 of 1 left. This tab keeps it, still encrypted, until you close the tab or press Forget this copy.",
    );
    const key = url.slice(url.indexOf("#") + 1);
    expect(visited.requests.filter((request) => request.includes(key))).toEqual([]);
    await visited.close();
  });

  it("a team link opened without a team token", async () => {
    const { url } = await world.publish("team only", { teamToken: await world.teamToken() });
    expect(await stateOf(url, false)).toMatchObject({ state: "team", heading: "This link is limited to a team", cli: true });
  });

  it("a server error (the stored body vanished while its link is live)", async () => {
    const { url } = await world.publish("about to lose its body");
    // Remove the newest R2 blob from wrangler's on-disk state: the worker then fails its read.
    const blobs: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        // Non-empty only: a publish also writes an empty expiry marker (docs/storage.md).
        else if (path.includes(`${join("r2")}`) && path.includes("blobs") && statSync(path).size > 0) blobs.push(path);
      }
    };
    walk(join(world.work, "state"));
    const newest = blobs.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    expect(newest).toBeDefined();
    rmSync(newest!);
    const shown = await stateOf(url, true);
    expect(shown).toMatchObject({ state: "server", heading: "The server ran into a problem" });
  });
});
