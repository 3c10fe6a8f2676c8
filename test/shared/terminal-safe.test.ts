import { describe, expect, it } from "vitest";
import { HOSTILE_CLASSES, TERMINAL_ATTACK, escaped, expectNoRawHostile } from "../helpers/hostile-text.js";
import { escapeJsonForTerminal, safeForTerminal, safeLineForTerminal, stringifyForTerminal } from "../../shared/text/terminal-safe.js";

describe("safeForTerminal", () => {
  it.each(Object.entries(HOSTILE_CLASSES))("shows every %s character escaped, never raw", (_name, chars) => {
    for (const ch of chars) {
      expect(safeForTerminal(`a${ch}b`)).toBe(`a${escaped(ch)}b`);
      expect(safeLineForTerminal(`a${ch}b`)).toBe(`a${escaped(ch)}b`);
    }
  });

  it("keeps newlines and tabs in multi-line text; the one-line form escapes them", () => {
    expect(safeForTerminal("a\n\tb")).toBe("a\n\tb");
    expect(safeLineForTerminal("a\n\tb")).toBe("a\\u000a\\u0009b");
  });

  it("leaves ordinary text, emoji and non-Latin scripts alone, and is idempotent", () => {
    const text = "Fix the café login 🎉 — 東京 עברית العربية";
    expect(safeForTerminal(text)).toBe(text);
    const once = safeForTerminal(TERMINAL_ATTACK);
    expect(once).toBe("slow down\\u001b]0;pwned\\u0007\\u001b[2J");
    expect(safeForTerminal(once)).toBe(once);
  });
});

describe("escapeJsonForTerminal", () => {
  it.each(Object.entries(HOSTILE_CLASSES))("escapes every %s character as a \\u sequence and parses back to the same value", (_name, chars) => {
    const value = { title: chars.join("x"), list: chars };
    const json = JSON.stringify(value, null, 2);
    const safe = escapeJsonForTerminal(json);
    expectNoRawHostile(safe);
    expect(JSON.parse(safe)).toEqual(value);
    expect(stringifyForTerminal(value)).toBe(safe);
  });
});
