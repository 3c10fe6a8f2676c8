import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactText } from "../../../shared/redact/index.js";
import { RULE_IDS } from "../../../shared/redact/rules.js";
import { positiveSamples } from "../../fixtures/redact/samples.js";
import { expectConsistent, survivingWindows } from "./consistency.js";

/** Ordinary handoff-ish text: words, paths, punctuation, newlines, in random order. */
const filler = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-z]{1,12}$/),
      fc.stringMatching(/^[A-Za-z0-9]{1,20}$/),
      fc.constantFrom(" ", "\n", "\n\n", ". ", ", ", "- ", "`", "# ", "/src/app.ts", "(see above)", "=", ":", "->", "| "),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

/** What may stand between the text and the secret. */
const separator = fc.constantFrom(" ", "\n", "\t", "\r\n", " | ", ", ", "\n\n", "  ", " (", ") ", "\n- ");

const samples = [...positiveSamples(11), ...positiveSamples(12)];

describe("a secret embedded anywhere never survives", () => {
  it.each(RULE_IDS)("%s", (rule) => {
    const candidates = samples.filter((sample) => sample.rule === rule);
    fc.assert(
      fc.property(filler, separator, fc.constantFrom(...candidates), separator, filler, (before, sepBefore, sample, sepAfter, after) => {
        const input = before + sepBefore + sample.text + sepAfter + after;
        const result = redactText(input);
        expectConsistent(input, result);
        expect(survivingWindows(sample.secret, result.text)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it("many secrets of different rules in one text", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, separator, fc.constantFrom(...samples)), { minLength: 1, maxLength: 12 }), (parts) => {
        const input = parts.map(([text, sep, sample]) => text + sep + sample.text + sep).join("");
        const result = redactText(input);
        expectConsistent(input, result);
        for (const [, , sample] of parts) expect(survivingWindows(sample.secret, result.text)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it("text without secrets comes back unchanged apart from what is reported", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        expectConsistent(text, redactText(text));
      }),
      { numRuns: 300 },
    );
  });
});
