import { describe, expect, it } from "vitest";
import { PASSPHRASE_REFUSE_BELOW_BITS, PASSPHRASE_WARN_BELOW_BITS, passphraseStrength } from "../../../shared/crypto/passphrase-strength.js";

// The documented estimate (docs/cli.md, "Passphrase strength"), case by case: what a guesser
// tries first is refused, short random ones are warned about, long ones pass.

describe("passphraseStrength", () => {
  it.each([
    // [passphrase, bits, why]
    ["a", 4, "one lower-case letter: log2(26)"],
    ["ab", 5, "a run: the second letter is worth 1 bit"],
    ["aaaaaaaaaaaaaaaaaaaa", 9, "one letter repeated 20 times: the letter plus log2(20)"],
    ["12345678", 10, "a run of digits"],
    ["password123", 13, "a common word (6 bits) and a run"],
    ["hunter2", 11, "a common word and a digit"],
    ["PASSWORD", 6, "a common word in any case"],
    ["summer2024", 26, "a common word and four digits"],
    ["kqzvbm", 28, "six random lower-case letters"],
    ["kqzvbmxj", 37, "eight random lower-case letters"],
    ["kqzvbmxjrtw", 51, "eleven"],
    ["Tr0ub4dor&3", 72, "every class: a pool of 95"],
    ["plum orbit 42 staple", 117, "four words with spaces and digits"],
    ["grüße aus köln", 102, "a character outside ASCII adds 100 to the pool"],
  ])("%j is about %i bits (%s)", (passphrase, bits) => {
    expect(passphraseStrength(passphrase).bits).toBe(bits);
  });

  it(`refuses below ${PASSPHRASE_REFUSE_BELOW_BITS} bits, warns below ${PASSPHRASE_WARN_BELOW_BITS}`, () => {
    expect(passphraseStrength("a").verdict).toBe("refuse");
    expect(passphraseStrength("kqzvbm").verdict).toBe("refuse");
    expect(passphraseStrength("kqzvbmx").verdict).toBe("warn");
    expect(passphraseStrength("kqzvbmxjrt").verdict).toBe("warn");
    expect(passphraseStrength("kqzvbmxjrtw").verdict).toBe("ok");
  });

  it("the same passphrase typed composed or decomposed is one passphrase", () => {
    expect(passphraseStrength("caf\u00e9 noir tous les jours")).toEqual(passphraseStrength("cafe\u0301 noir tous les jours"));
  });
});
