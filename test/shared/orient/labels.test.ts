import { describe, expect, it } from "vitest";
import { extractOrientation } from "../../../shared/orient/extract.js";
import { readLabelLine } from "../../../shared/orient/labels.js";
import { countContentWords } from "../../../shared/orient/substance.js";
import { readProseCues } from "../../../shared/orient/cues.js";
import { emptyOrientation, type Orientation } from "../../../shared/orient/types.js";

const markdown = (body: string) => extractOrientation({ format: "markdown", body, metadata: {} });
const orientation = (parts: Partial<Orientation>): Orientation => ({ ...emptyOrientation(), ...parts });

describe("readLabelLine: labels anywhere a line starts", () => {
  it.each([
    ["Goal: ship it", [["objective", "ship it"]], undefined],
    ["goal: ship it", [["objective", "ship it"]], undefined],
    ["current_state: red", [["current_state", "red"]], undefined],
    ["- Done: the lexer", [["progress", "the lexer"]], 0],
    ["3) Next: the printer", [["unfinished", "the printer"]], 0],
    ["- [ ] TODO: tag the release", [["unfinished", "tag the release"]], 0],
    ["**Blockers**", [["unfinished", ""]], undefined],
    ["- **Goal:** ship it", [["objective", "ship it"]], 0],
    ["Next steps:", [["unfinished", ""]], undefined],
    [
      "Goal: ship v1.2. Status: red; Next: fix it",
      [
        ["objective", "ship v1.2."],
        ["current_state", "red"],
        ["unfinished", "fix it"],
      ],
      undefined,
    ],
    [
      "Goal: x | Status: y",
      [
        ["objective", "x"],
        ["current_state", "y"],
      ],
      undefined,
    ],
    [
      "**Goal:** a. **Status:** b",
      [
        ["objective", "a."],
        ["current_state", "b"],
      ],
      undefined,
    ],
  ])("%s", (line, labels, item) => {
    const read = readLabelLine(line);
    expect(read?.labels.map((l) => [l.kind, l.inline])).toEqual(labels);
    expect(read?.item).toBe(item);
  });

  // Each of these holds a colon or a synonym and is still not a label.
  it.each([
    ["a phrase that names no section", "The plan: ship it"],
    ["a long phrase before a colon is a sentence", "The current state of the whole migration effort: nothing moved"],
    ["emphasis inside a sentence", "We **goal** nothing here."],
    ["bold without a colon, followed by text", "**Status** is green now"],
    ["a URL", "https://example.dev/status: x"],
    ["a time", "10:30 status meeting"],
    ["no space after the colon", "status:red"],
    ["a quoted line", "> Status: quoted from elsewhere"],
    ["a table row", "| Status: green |"],
    ["a nested list item", "  - Why: the old token stays valid"],
    ["indented code", "    Status: inside an indented code block"],
    ["a label later in a line that opens with none", "Shipped the parser. Next: the printer."],
  ])("%s", (_name, line) => {
    expect(readLabelLine(line)).toBeUndefined();
  });

  it("splits a run only at a sentence's end and only on a short label", () => {
    expect(readLabelLine("Goal: support the format: CSV")?.labels).toEqual([{ kind: "objective", inline: "support the format: CSV" }]);
    expect(readLabelLine("Goal: x. The current state of things: y")?.labels).toEqual([{ kind: "objective", inline: "x. The current state of things: y" }]);
  });
});

describe("sections around labels", () => {
  it("a labelled list item holds that item; the list's section goes on after it", () => {
    expect(markdown("## Progress\n- parser done\n- Tests: three added\n- printer done\n")).toEqual(orientation({ progress: ["parser done", "printer done"], verification: ["three added"] }));
  });

  it("a bare labelled item heads its nested items; a bare one over items at its own depth heads them too", () => {
    expect(markdown("- Next:\n  - a test\n  - a fix\n- the CI is red\n").unfinished).toEqual(["a test", "a fix"]);
    expect(markdown("- Next:\n- a test\n- a fix\n").unfinished).toEqual(["a test", "a fix"]);
  });

  it("a label's paragraph ends at a blank line; a fenced label is quoted, not a section", () => {
    expect(markdown("Status: red\nsince Monday\n\nunrelated text\n\n```\nGoal: in a fence\n```\n")).toEqual(orientation({ current_state: "red since Monday" }));
  });

  it("checklists inside a section keep the section's meaning; outside every section, ticks decide", () => {
    expect(markdown("## Next steps\n- [x] a\n- [ ] b\n")).toEqual(orientation({ unfinished: ["a", "b"] }));
    expect(markdown("Release\n- [x] a\n- [X] b\n- [ ] c\n")).toEqual(orientation({ objective: "Release", progress: ["a", "b"], unfinished: ["c"] }));
  });

  it("prose is read by its cues only when no section says anything", () => {
    const withSection = markdown("I'm fixing the pager. Page 2 fails.\n\n## References\n- docs/pager.md\n");
    expect(withSection).toEqual(orientation({ references: ["docs/pager.md"] }));
  });
});

describe("countContentWords", () => {
  it.each([
    ["see chat", 0],
    ["Goal: TBD", 1],
    ["- `src/parse.ts`\n- docs/x.md\n- README.md", 0],
    ["https://example.dev/a?b=c", 0],
    ["Tests fail in src/parse.ts", 2],
    ["the lexer is done", 2],
    ["3 of 50 runs", 1],
    ["修复解析器", 3],
    ["«Décisions» prises", 2],
    [`${"!".repeat(50)}word${"?".repeat(50)}`, 1],
  ])("%s -> %i", (text, count) => {
    expect(countContentWords(text)).toBe(count);
  });

  it("stops at its limit", () => {
    expect(countContentWords("one two three four five", 2)).toBe(2);
  });
});

describe("readProseCues", () => {
  it("reads each sentence once, a next step before anything else it says", () => {
    expect(readProseCues(["Then I'll rerun the failing suite.", "We are porting the lexer."])).toEqual({
      objective: "We are porting the lexer.",
      state: [],
      next: ["Then I'll rerun the failing suite."],
    });
  });

  it("takes no uncued sentence as the objective unless the prose says where things stand", () => {
    expect(readProseCues(["We talked about tokens with the platform team."])).toEqual({ state: [], next: [] });
    expect(readProseCues(["Thanks, that works now.", "Pushing it later."])).toEqual({ state: ["Thanks, that works now."], next: [] });
  });
});
