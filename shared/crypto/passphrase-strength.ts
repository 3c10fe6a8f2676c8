// How strong a link's passphrase is, by a simple estimate anyone can redo by hand (docs/cli.md,
// "Passphrase strength"): it decides whether `publish --passphrase` refuses it, warns, or says
// nothing. An estimate, not a measurement: it is meant to catch the passphrases a guesser tries
// first (short ones, one repeated character, a run like "abcd" or "4321", a common password word),
// not to rank good ones.

/** Below this many bits a passphrase is refused: a guesser holding the link and the ciphertext needs hours at most. */
export const PASSPHRASE_REFUSE_BELOW_BITS = 30;
/**
 * Below this many bits it is accepted with a warning: the server's per-link limit stops online
 * guessing long before, but someone holding the link and the ciphertext (the server's operator, a
 * storage leak) guesses offline at the KDF's cost.
 */
export const PASSPHRASE_WARN_BELOW_BITS = 50;

/**
 * Words a guesser tries first (the head of every leaked-password list, and this tool's own name).
 * Each occurrence, in any case, counts as one pick from this list: log2 of its length in bits.
 */
const COMMON_WORDS = [
  "password",
  "passphrase",
  "passwort",
  "qwerty",
  "qwertz",
  "azerty",
  "asdf",
  "zxcv",
  "letmein",
  "welcome",
  "administrator",
  "admin",
  "login",
  "master",
  "secret",
  "monkey",
  "dragon",
  "football",
  "baseball",
  "soccer",
  "hockey",
  "iloveyou",
  "love",
  "sunshine",
  "princess",
  "shadow",
  "superman",
  "batman",
  "trustno",
  "hunter",
  "starwars",
  "whatever",
  "freedom",
  "computer",
  "internet",
  "summer",
  "winter",
  "spring",
  "autumn",
  "hello",
  "changeme",
  "default",
  "guest",
  "test",
  "demo",
  "root",
  "user",
  "handoff",
  "access",
  "killer",
  "charlie",
  "michael",
  "jordan",
  "ninja",
  "mustang",
  "cheese",
  "banana",
  "flower",
  "purple",
  "orange",
  "chocolate",
  "pokemon",
  "google",
  "abc",
] as const;
// Longest first, so "administrator" is one word, not "admin" and the rest.
const WORDS_LONGEST_FIRST = [...COMMON_WORDS].sort((a, b) => b.length - a.length);
const WORD_BITS = Math.log2(COMMON_WORDS.length);

/** Character classes and the size each adds to the pool a character is drawn from. */
const CLASSES: ReadonlyArray<[RegExp, number]> = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/, 33],
  [/[^\x00-\x7f]/, 100],
];

export interface PassphraseStrength {
  /** The estimate, in whole bits (rounded down). */
  bits: number;
  verdict: "refuse" | "warn" | "ok";
}

/**
 * Estimates a passphrase's strength in bits, by this method:
 * 1. the pool: the sizes of the character classes it uses, added up (lower case 26, upper case
 *    26, digits 10, ASCII punctuation and space 33, anything else 100);
 * 2. a passphrase that is one piece repeated k times is worth that piece plus log2(k);
 * 3. each common password word in it (a list of 64, any case) is worth log2(64) = 6 bits,
 *    whatever its length (the longest word that fits is taken first);
 * 4. every other character is worth log2(pool) bits, except one that repeats the character
 *    before it or continues a run ("abc", "987"): 1 bit.
 * Below `PASSPHRASE_REFUSE_BELOW_BITS` (30) the verdict is "refuse", below
 * `PASSPHRASE_WARN_BELOW_BITS` (50) "warn", else "ok".
 *
 * @example
 * ```ts
 * passphraseStrength("a") // { bits: 4, verdict: "refuse" }
 * passphraseStrength("password123") // { bits: 13, verdict: "refuse" }
 * passphraseStrength("kqzvbmxj") // { bits: 37, verdict: "warn" }
 * passphraseStrength("plum orbit 42 staple") // { bits: 117, verdict: "ok" }
 * ```
 */
export function passphraseStrength(passphrase: string): PassphraseStrength {
  const chars = [...passphrase.normalize("NFC")];
  const pool = CLASSES.reduce((size, [pattern, add]) => (chars.some((c) => pattern.test(c)) ? size + add : size), 0);
  const bits = Math.floor(Math.max(0, estimate(chars, Math.log2(Math.max(pool, 2)))));
  return { bits, verdict: bits < PASSPHRASE_REFUSE_BELOW_BITS ? "refuse" : bits < PASSPHRASE_WARN_BELOW_BITS ? "warn" : "ok" };
}

function estimate(chars: string[], bitsPerChar: number): number {
  const unit = repeatedUnit(chars);
  if (unit !== undefined) return estimate(chars.slice(0, unit), bitsPerChar) + Math.log2(chars.length / unit);
  const lower = chars.map((c) => c.toLowerCase());
  let bits = 0;
  for (let i = 0; i < chars.length; ) {
    const word = WORDS_LONGEST_FIRST.find((w) => lower.slice(i, i + w.length).join("") === w);
    if (word !== undefined) {
      bits += WORD_BITS;
      i += word.length;
      continue;
    }
    bits += i > 0 && (lower[i] === lower[i - 1] || continuesRun(lower, i)) ? 1 : bitsPerChar;
    i++;
  }
  return bits;
}

/** The length of the shortest piece `chars` is two or more copies of, or undefined. */
function repeatedUnit(chars: string[]): number | undefined {
  for (let size = 1; size <= chars.length / 2; size++) {
    if (chars.length % size === 0 && chars.every((c, i) => c === chars[i % size])) return size;
  }
  return undefined;
}

/** Whether `chars[i]` is one step on from the character before it, up or down ("ab", "98"): the start or the rest of a run. */
function continuesRun(chars: string[], i: number): boolean {
  return Math.abs((chars[i]!.codePointAt(0) ?? 0) - (chars[i - 1]!.codePointAt(0) ?? 0)) === 1;
}
