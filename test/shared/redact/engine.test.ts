import { describe, expect, it } from "vitest";
import { isHandoffError } from "../../../shared/errors.js";
import { mergeSpans, redactWith } from "../../../shared/redact/engine.js";
import { redactText, scanText } from "../../../shared/redact/index.js";
import type { Rule } from "../../../shared/redact/types.js";
import { positiveSamples } from "../../fixtures/redact/samples.js";
import { expectConsistent } from "./consistency.js";

/** A rule that claims fixed regions, to drive the merge. */
const fixedRule = (id: string, regions: [number, number][]): Rule => ({
  ids: [id],
  docs: {},
  prefixes: [""],
  find: (ctx) => regions.forEach(([start, end]) => ctx.emit(start, end, id)),
});

describe("merging overlapping regions", () => {
  const cases: { name: string; rules: Rule[]; text: string; expected: string }[] = [
    {
      name: "the earlier start wins and the union is redacted",
      rules: [fixedRule("a", [[2, 6]]), fixedRule("b", [[4, 9]])],
      text: "0123456789",
      expected: "01[REDACTED:a]9",
    },
    {
      name: "on the same start the longer wins",
      rules: [fixedRule("short", [[0, 3]]), fixedRule("long", [[0, 6]])],
      text: "0123456789",
      expected: "[REDACTED:long]6789",
    },
    {
      name: "on the same region the earlier rule wins",
      rules: [fixedRule("first", [[1, 4]]), fixedRule("second", [[1, 4]])],
      text: "0123456789",
      expected: "0[REDACTED:first]456789",
    },
    {
      name: "a region inside another disappears into it",
      rules: [fixedRule("outer", [[1, 9]]), fixedRule("inner", [[3, 5]])],
      text: "0123456789",
      expected: "0[REDACTED:outer]9",
    },
    {
      name: "adjacent regions stay two findings",
      rules: [fixedRule("a", [[0, 3]]), fixedRule("b", [[3, 6]])],
      text: "0123456789",
      expected: "[REDACTED:a][REDACTED:b]6789",
    },
  ];
  it.each(cases)("$name", ({ rules, text, expected }) => {
    const result = redactWith(text, rules);
    expect(result.text).toBe(expected);
    expectConsistent(text, result);
  });

  it("chains of overlaps merge into one region", () => {
    const merged = mergeSpans([
      { start: 0, end: 4, rule: "a", priority: 0 },
      { start: 3, end: 8, rule: "b", priority: 1 },
      { start: 7, end: 12, rule: "c", priority: 2 },
    ]);
    expect(merged).toEqual([{ start: 0, end: 12, rule: "a" }]);
  });
});

describe("the report", () => {
  const [token, aws] = positiveSamples(5);
  const text = `line one\n  ${token!.text}\nx ${aws!.text} y\n`;

  it("gives 1-based lines and columns and per-rule counts", () => {
    const result = redactText(text);
    expect(result.findings).toEqual([
      { rule: "github-token", line: 2, column: 3 + token!.text.indexOf(token!.secret), length: token!.secret.length },
      { rule: "github-token", line: 3, column: 3 + aws!.text.indexOf(aws!.secret), length: aws!.secret.length },
    ]);
    expect(result.counts).toEqual({ "github-token": 2 });
    expect(result.complete).toBe(true);
  });

  it("scanText is redactText without the text", () => {
    const { text: _redacted, ...report } = redactText(text);
    expect(scanText(text)).toEqual(report);
  });

  it("redacting twice changes nothing more", () => {
    const once = redactText(
      positiveSamples(7)
        .map((s) => s.text)
        .join("\n"),
    );
    const twice = redactText(once.text);
    expect(twice.findings).toEqual([]);
    expect(twice.text).toBe(once.text);
  });

  it("an empty text is clean", () => {
    expect(redactText("")).toEqual({ text: "", findings: [], counts: {}, complete: true });
  });
});

describe("the deadline", () => {
  it("throws redaction_failed when the clock passes it, naming the rule", () => {
    let calls = 0;
    const now = () => (calls++ < 3 ? 0 : 10_000);
    let caught: unknown;
    try {
      redactText(
        positiveSamples(3)
          .map((s) => s.text)
          .join("\n"),
        { deadlineMs: 50, now },
      );
    } catch (error) {
      caught = error;
    }
    expect(isHandoffError(caught) && caught.reason).toBe("redaction_failed");
    expect(isHandoffError(caught) && typeof caught.details?.rule).toBe("string");
  });

  it("a rule that runs long is stopped inside its own loop", () => {
    let clock = 0;
    const slow: Rule = {
      ids: ["slow"],
      docs: {},
      prefixes: [""],
      find: (ctx) => {
        for (let i = 0; i < 100; i++) {
          clock += 10;
          ctx.tick();
        }
      },
    };
    expect(() => redactWith("text", [slow], { deadlineMs: 100, now: () => clock })).toThrow(/did not finish within 100 ms/);
  });

  it("a clock that stays inside the deadline lets the scan finish", () => {
    const result = redactText("nothing here", { deadlineMs: 1, now: () => 42 });
    expect(result.complete).toBe(true);
  });
});
