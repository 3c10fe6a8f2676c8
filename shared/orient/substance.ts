/**
 * How much a text says, in content words: the words left after markup, paths, URLs, numbers,
 * function words and filler ("see chat", "TBD", "wip") are set aside. Sufficiency reads it to
 * tell a thin handoff from an empty one; it never judges which words are true.
 */

/** Fewer content words than this in the whole body: it says nothing a session could resume from. */
export const EMPTY_BELOW = 2;

/** Substance is counted this far: enough to tell empty from not, and no further (a 1 MiB body is not read twice). */
export const SUBSTANCE_COUNTED = 8;

// Function words: they carry no context of their own.
const STOPWORDS = new Set(
  (
    "a an the and or but nor of to in on at for with by from as into onto about over under than then so if " +
    "is are was were be been being am do does did has have had having it its it's this that these those there here " +
    "i me my we us our you your he him his she her they them their one some any all each every no not " +
    "just also very too really quite still yet up out off again please can could will would shall should may might must " +
    "ll re ve"
  ).split(" "),
);

// Words that stand in for context rather than carry it: pointers elsewhere, placeholders,
// pleasantries, and what a note calls itself. "Status: TBD" and "see chat" say nothing.
const FILLER = new Set(
  (
    "see chat chats above below earlier previous previously thread conversation discussion slack message messages dm " +
    "details detail misc etc stuff things thing tbd tbc todo todos fixme xxx na none nothing nil null nope yes yep ok okay " +
    "thanks thank thx hello hi hey handoff handoffs session sessions later today tomorrow tonight continue continued continuing " +
    "same placeholder fill lorem ipsum untitled context info information pending ditto whatever"
  ).split(" "),
);

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;
// A path, file name or address stands for a place, not for what happened there.
const POINTER = /[/\\@]|^[\w.-]+\.[a-z][a-z0-9]{0,7}$|^[a-z][a-z0-9+.-]*:\/\//i;
// Unicode classes are built on first use: compiling them costs start-up time that ASCII text never needs.
let unicodeWord: RegExp | undefined;
let wideScript: RegExp | undefined;
const unicodeWords = () => (unicodeWord ??= /[\p{L}\p{N}]+/gu);
const wideScripts = () => (wideScript ??= /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u);

/**
 * The content words of `text`, counted up to `limit` (counting stops there: callers ask "at
 * least n?", and a 1 MiB body needs no more than its first lines read for that).
 *
 * @example
 * ```ts
 * countContentWords("see chat") // 0
 * countContentWords("- `src/parse.ts`\n- docs/x.md") // 0
 * countContentWords("Tests fail in src/parse.ts") // 2 ("tests", "fail")
 * ```
 */
export function countContentWords(text: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0;
  const tokens = /\S+/g;
  for (let match = tokens.exec(text); match !== null && count < limit; match = tokens.exec(text)) count += tokenWords(match[0]);
  return Math.min(count, limit);
}

function tokenWords(raw: string): number {
  const ascii = ASCII.test(raw);
  const token = trimPunctuation(raw);
  if (token === "" || POINTER.test(token)) return 0;
  let count = 0;
  const words = ascii ? token.toLowerCase().match(ASCII_WORD) : token.toLowerCase().match(unicodeWords());
  for (const word of words ?? []) {
    if (/^\d+$/.test(word) || STOPWORDS.has(word) || FILLER.has(word)) continue;
    // Scripts written without spaces (Chinese, Japanese, Thai) hold a phrase in one "word":
    // two characters count as one word, so a handoff in them is never judged empty by its spacing.
    count += !ascii && wideScripts().test(word) ? Math.ceil(word.length / 2) : 1;
  }
  return count;
}

/**
 * The token without the quotes, backticks and punctuation around it. A loop, not a regular
 * expression: `[^a-z]+$` retried at every position of a long run of punctuation is quadratic.
 */
function trimPunctuation(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && isEdge(raw.charCodeAt(start))) start++;
  while (end > start && isEdge(raw.charCodeAt(end - 1))) end--;
  return raw.slice(start, end);
}

/** ASCII punctuation and symbols; letters and digits of every script stay. */
function isEdge(code: number): boolean {
  return code < 0x80 && !((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a));
}
