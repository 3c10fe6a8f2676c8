// The reader's pure parts, without a browser: which links stay links, and what an opened handoff
// is shown as. The page itself is tested in Chromium next door.
import { afterEach, describe, expect, it } from "vitest";
import { handoffView } from "../../worker/page/reader/handoff-view.js";
import { safeHref } from "../../worker/page/reader/safe-href.js";
import { resumeWords } from "../../worker/page/resume-words.js";
import { instantWords, scopeWords } from "../../worker/page/reader/words.js";
import { CE_HANDOFF, HEAD, MANIFEST } from "./reader-fixtures.js";

const PAGE = "https://handoff.example/h/q3Jf0wS5b1mCq2o9X0aZ4w#key";

describe("safeHref", () => {
  it.each([
    ["https://example.com/a?b#c", "https://example.com/a?b#c"],
    ["http://example.com/", "http://example.com/"],
    ["docs/design.md", "https://handoff.example/h/docs/design.md"],
    ["/abs", "https://handoff.example/abs"],
    ["//other.example/x", "https://other.example/x"],
    ["#section", null],
    [" #section", null],
    ["javascript:alert(1)", null],
    ["JavaScript:alert(1)", null],
    ["java\tscript:alert(1)", null],
    [" javascript:alert(1)", null],
    ["data:text/html,<script>alert(1)</script>", null],
    ["vbscript:msgbox(1)", null],
    ["file:///etc/passwd", null],
    ["mailto:a@b.example", null],
    ["blob:https://handoff.example/uuid", null],
    ["http://[bad", null],
  ])("%j -> %j", (href, expected) => {
    expect(safeHref(href, PAGE)).toBe(expected);
  });
});

describe("handoffView", () => {
  it("reads the card from a flat ce-handoff frontmatter and renders only the body", () => {
    const view = handoffView(CE_HANDOFF, "fix-login.md");
    expect(view.kind).toBe("markdown");
    expect(view.card).toEqual({
      title: "Fix the login redirect",
      summary: "Sessions expire during OAuth callback; refresh is half done",
      repository: "github.com/example/app",
      branch: "fix/login-redirect",
      head: HEAD,
      created: "2026-11-30T09:15:00Z",
      focus: "finish token refresh in session.ts",
      keywords: ["auth", "oauth"],
    });
    expect(view.markdown.startsWith("# Current state\n")).toBe(true);
  });

  it("takes a field only when it has the expected type", () => {
    const view = handoffView('---\ntitle: 42\nsummary: ""\nkeywords: ["ok", 7, null, "  "]\nbranch: ["x"]\n---\nbody', "x.md");
    expect(view.card).toEqual({ keywords: ["ok"] });
    expect(view.markdown).toBe("body");
  });

  it("keeps a YAML frontmatter as written instead of interpreting it", () => {
    const view = handoffView("---\ntitle: plain\n---\nbody\n", "x.md");
    expect(view).toMatchObject({ kind: "markdown", card: { keywords: [] }, frontmatterAsWritten: "title: plain\n", markdown: "body\n" });
  });

  it("renders a whole file without frontmatter as Markdown", () => {
    expect(handoffView("# Just notes\n", "n.md")).toEqual({ kind: "markdown", card: { keywords: [] }, markdown: "# Just notes\n" });
  });

  it.each([
    ["the same title", "# Fix the login redirect\n\n## Current state\n", "## Current state\n"],
    ["the title in other case, with inline marks", "  # fix the *Login* `redirect` #\r\n\r\nNext\r\n", "Next\n"],
    ["a setext heading", "Fix the login redirect\n======================\ntext\n", "text\n"],
  ])("leaves out a leading heading that repeats the title: %s", (_label, body, rest) => {
    const view = handoffView(`---\ntitle: "Fix the login redirect"\n---\n${body}`, "x.md");
    expect(view.markdown).toBe(rest);
  });

  it("matches a title cut short with … to the heading it was cut from", () => {
    const long = `Migrate ${"the billing jobs ".repeat(6)}to the queue`;
    const view = handoffView(`---\ntitle: ${JSON.stringify(`${long.slice(0, 60).trimEnd()}…`)}\n---\n# ${long}\n\nbody\n`, "x.md");
    expect(view.markdown).toBe("body\n");
  });

  it.each([
    ["another heading first", "# Something else\n\nFix the login redirect\n"],
    ["the title later, not first", "Intro.\n\n# Fix the login redirect\n"],
    ["a heading that only starts like the title", "# Fix the login redirect, then the logout\n"],
    ["the title inside a fence", "```\n# Fix the login redirect\n```\n"],
  ])("keeps the body whole when it does not open with the title: %s", (_label, body) => {
    expect(handoffView(`---\ntitle: "Fix the login redirect"\n---\n${body}`, "x.md").markdown).toBe(body);
  });

  it("leaves a kernel manifest's own Resume section out (the page has one resume command) and keeps the rest", () => {
    const manifest = JSON.parse(MANIFEST) as { resume: { prompt: string } };
    manifest.resume.prompt = "handoff resume '_meta/handoffs/x.json'\n## Not a heading";
    const view = handoffView(JSON.stringify(manifest), "m.json");
    expect(view.kind).toBe("kernel");
    expect(view.markdown).not.toContain("## Resume");
    expect(view.markdown).not.toContain("handoff resume");
    expect(view.markdown).not.toContain("Not a heading");
    expect(view.markdown).toContain("## Outputs");
    expect(view.markdown).toContain("## Warnings");
  });

  it("lays a kernel manifest out as its sections under the NOT AUTHORITATIVE notice", () => {
    const view = handoffView(MANIFEST, "m.json");
    expect(view.kind).toBe("kernel");
    expect(view.notice).toEqual({
      title: "RENDERED FROM m.json — NOT AUTHORITATIVE",
      text: "The JSON manifest is the source of truth; this page is a reading aid. Resume from the JSON.",
    });
    expect(view.card).toMatchObject({ title: "yaml-skill-unification", branch: "feat/yaml-skill-unification", head: "12397dedd6b82305f0f0703c15cc2b284c5fc49c" });
    for (const heading of ["## Objective", "### Success conditions", "## Phases", "### Decisions accepted", "## Warnings", "### Pinned artifacts", "## Context"]) {
      expect(view.markdown).toContain(heading);
    }
  });

  it.each([
    ["JSON that is not a manifest", '{"a": 1}'],
    ["a manifest of the wrong shape", '{"schema": "kernel.handoff/v1", "identity": 5}'],
    ["JSON with a duplicate key", '{"schema": "kernel.handoff/v1", "schema": "x"}'],
  ])("shows %s as a JSON code block, as written", (_label, text) => {
    const view = handoffView(text, "x.json");
    expect(view.kind).toBe("markdown");
    expect(view.markdown).toBe(`\`\`\`json\n${text}\n\`\`\`\n`);
  });
});

describe("instantWords, the page's one date format", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it.each([
    ["UTC", "2026-11-30T09:15:00Z", "30 Nov 2026, 09:15 UTC"],
    ["Asia/Kolkata", "2026-11-30T09:15:00Z", "30 Nov 2026, 14:45 UTC+5:30"],
    ["America/St_Johns", "2026-11-30T09:15:00Z", "30 Nov 2026, 05:45 UTC-3:30"],
    ["America/New_York", "2026-07-01T03:05:00.000Z", "30 Jun 2026, 23:05 UTC-4"],
    ["Pacific/Kiritimati", "2026-12-31T23:59:00Z", "1 Jan 2027, 13:59 UTC+14"],
  ])("in %s, %s is %j", (tz, iso, words) => {
    // Node reads TZ again when it changes, so each case sees its own zone.
    process.env.TZ = tz;
    expect(instantWords(iso)).toBe(words);
  });

  it("is undefined for what is not a timestamp", () => {
    expect(instantWords("last Tuesday")).toBeUndefined();
  });
});

describe("who may open a link", () => {
  it.each([
    [{ scope: "link" }, "anyone with the full link"],
    [{ scope: "link", passphrase: true }, "anyone with the full link and its passphrase"],
    [{ scope: "team" }, "members of the sender's team, with the Handoff CLI"],
    [{ scope: "team", passphrase: true }, "members of the sender's team, with the Handoff CLI and the link's passphrase"],
  ] as const)("%j: %s", (meta, words) => {
    expect(scopeWords(meta)).toBe(words);
  });
});

describe("a link's one resume command", () => {
  it("gives a team link the teammate's command and every other link the paste prompt", () => {
    const id = "q3Jf0wS5b1mCq2o9X0aZ4w";
    expect(resumeWords("team", id).command).toBe(`handoff resume --team ${id}`);
    expect(resumeWords("link", id).command).toBe("handoff resume --paste");
    expect(resumeWords("passphrase", id).command).toBe("handoff resume --paste");
    expect(resumeWords("passphrase", id).how).toContain("passphrase");
  });
});
