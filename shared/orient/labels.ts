import { classifySectionLabel } from "./classify.js";
import type { SectionKind } from "./types.js";

/** A label that names a section, and the text after it on its line. */
export interface Label {
  kind: SectionKind;
  inline: string;
}

/** The labels a line opens with: one, or a run of them ("Goal: x. Status: y."). */
export interface LabelLine {
  labels: Label[];
  /** The list marker's column when the line is a list item ("- Done: x"): the labels head that item only. */
  item?: number;
}

// A list item that may carry a label: a top-level one. A label on a nested item is a detail of
// its parent ("- Decision A\n  - Why: ..."), not a section of the handoff.
const LIST_ITEM = /^([ \t]?)(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
const INDENT = /^[ \t]*/;
const BOLD = /^(?:\*\*|__)([^*_\n]{1,60}?)(?:\*\*|__)/;
// A colon followed by a space or the line's end: "https://", "10:30" and "key:value" are not labels.
const PLAIN = /^([^\s:#>|`*_[-][^:]{0,40}?)[ \t]*:(?=\s|$)/;
/** Where a label may start inside a line: after a sentence's end, a semicolon or a table bar. */
const RUN_BREAK = /[.;!?|][ \t]+/g;
/** A label at a line's start: at most this many words ("Where I left off"). */
const LINE_LABEL_WORDS = 5;
/** A label inside a line: fewer, so a sentence that happens to hold a colon stays a sentence. */
const RUN_LABEL_WORDS = 4;
/** How far a label inside a line is looked for: the longest label and its markup. */
const RUN_WINDOW = 72;

/**
 * The labels a line opens with, or undefined when it opens with none: a bold label
 * (`**Goal:** x`, `**Next steps**` alone), a plain one (`Goal: x`, `current_state:`, any case),
 * either as a list item (`- Done: x`, `2. Next: y`), and further labels after a sentence's end
 * on the same line. A label counts only when its words name a section (classify.ts); a bold
 * phrase inside a sentence is emphasis, and a long phrase before a colon is a sentence.
 *
 * @example
 * ```ts
 * readLabelLine("- Goal: ship the parser. Status: tests red.")
 * // { labels: [{ kind: "objective", inline: "ship the parser." }, { kind: "current_state", inline: "tests red." }], item: 0 }
 * readLabelLine("The plan: ship it") // undefined
 * ```
 */
export function readLabelLine(line: string): LabelLine | undefined {
  const list = LIST_ITEM.exec(line);
  const start = list ? list[0].length : (INDENT.exec(line)?.[0].length ?? 0);
  // Deeper-indented lines are continuations or nested items, never labels of their own.
  if (!list && start > 3) return undefined;
  const text = line.slice(start);
  const first = leadingLabel(text, LINE_LABEL_WORDS, false);
  if (!first) return undefined;
  const labels = splitRun(first.kind, text.slice(first.length));
  return list ? { labels, item: list[1]?.length ?? 0 } : { labels };
}

/** A label at the start of `text`: its kind and how many characters it takes, colon included. */
function leadingLabel(text: string, maxWords: number, needColon: boolean): { kind: SectionKind; length: number } | undefined {
  const bold = BOLD.exec(text);
  if (bold?.[1] !== undefined) {
    const name = bold[1].trim();
    let length = bold[0].length;
    const colonAfter = /^[ \t]*:/.exec(text.slice(length, length + 8));
    if (colonAfter) length += colonAfter[0].length;
    const hasColon = name.endsWith(":") || colonAfter !== null;
    // A bold phrase inside a sentence is emphasis, not a label; alone on its line it heads what follows.
    if (!hasColon && (needColon || text.slice(length).trim() !== "")) return undefined;
    const kind = classifySectionLabel(name.replace(/:$/, ""));
    return kind && { kind, length };
  }
  const plain = PLAIN.exec(text);
  if (plain?.[1] === undefined || plain[1].trim().split(/\s+/).length > maxWords) return undefined;
  const kind = classifySectionLabel(plain[1]);
  return kind && { kind, length: plain[0].length };
}

/** The text after a line's first label, split where another label starts after a sentence's end. */
function splitRun(kind: SectionKind, rest: string): Label[] {
  const labels: Label[] = [];
  let current = kind;
  let from = 0;
  // Every label needs a colon near its start: a break with none in reach is passed over without
  // a look ("x. ;. ;. ;" over a whole line is as cheap as prose).
  let colon = rest.indexOf(":");
  RUN_BREAK.lastIndex = 0;
  for (let brk = colon === -1 ? null : RUN_BREAK.exec(rest); brk !== null; brk = RUN_BREAK.exec(rest)) {
    const at = brk.index + brk[0].length;
    if (colon < at) colon = rest.indexOf(":", at);
    if (colon === -1) break;
    if (colon - at > RUN_WINDOW) continue;
    const next = leadingLabel(rest.slice(at, at + RUN_WINDOW), RUN_LABEL_WORDS, true);
    if (!next) continue;
    // A sentence keeps its full stop; a semicolon or a table bar between labels is only a separator.
    labels.push({ kind: current, inline: rest.slice(from, /[;|]/.test(rest[brk.index] ?? "") ? brk.index : brk.index + 1).trim() });
    current = next.kind;
    from = at + next.length;
    RUN_BREAK.lastIndex = from;
  }
  labels.push({ kind: current, inline: rest.slice(from).trim() });
  return labels;
}
