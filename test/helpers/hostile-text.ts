import { expect } from "vitest";

/** Every class of character a terminal (or a reader) acts on, with examples at each edge of its range. */
export const HOSTILE_CLASSES: Record<string, string[]> = {
  c0: ["\u0000", "\u0007", "\u0008", "\u000b", "\u000c", "\r", "\u001b", "\u001f"],
  del: ["\u007f"],
  c1: ["\u0080", "\u0085", "\u009b", "\u009d", "\u009f"],
  bidi: ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"],
  separators: ["\u2028", "\u2029"],
};
export const ALL_HOSTILE = Object.values(HOSTILE_CLASSES).flat();
/** What the review saw: a title and a screen clear inside a rate-limit message. */
export const TERMINAL_ATTACK = "slow down\u001b]0;pwned\u0007\u001b[2J";

export const escaped = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Fails naming the first raw hostile character in `text`. */
export function expectNoRawHostile(text: string): void {
  for (const ch of ALL_HOSTILE) expect(text.includes(ch), `raw ${escaped(ch)} in output`).toBe(false);
}
