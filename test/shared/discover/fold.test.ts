import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordTokens, wordTokensContaining } from "../../../shared/discover/fold.js";

// Ranking splits a field into words only when one of the searched words occurs in it
// (wordTokensContaining). What it skips must be a field where no word could have scored: no word
// of it equal to a searched word or starting with one.

const PIECES = ["auth", "Auth", "AUTH", "login", "fix", "v2", "résumé", "Résumé", "ÉCOLE", "ﬁle", "日本", "-", "_", " ", ".", "flow", "a", "au", "3", "x3", "\u0301", "ς", "Σ"];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(""));
const wanted = fc.array(text, { maxLength: 3 }).map((texts) => [...new Set(texts.flatMap(wordTokens))]);

describe("wordTokensContaining", () => {
  it("is wordTokens whenever a searched word could score, and otherwise nothing or wordTokens", () => {
    fc.assert(
      fc.property(text, wanted, (field, words) => {
        const all = wordTokens(field);
        const got = wordTokensContaining(field, words);
        const couldScore = all.some((token) => words.some((word) => token === word || token.startsWith(word)));
        if (couldScore) expect(got).toEqual(all);
        else expect(got.length === 0 || JSON.stringify(got) === JSON.stringify(all)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it("skips a field without the searched words", () => {
    expect(wordTokensContaining("Fix-Auth flow", ["auth"])).toEqual(["fix", "auth", "flow"]);
    expect(wordTokensContaining("Fix-Auth flow", ["login"])).toEqual([]);
    expect(wordTokensContaining("Résumé notes", ["resume"])).toEqual(["resume", "notes"]);
    expect(wordTokensContaining("", ["auth"])).toEqual([]);
  });
});
