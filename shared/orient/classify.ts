import { wordTokens } from "../discover/fold.js";
import type { SectionKind } from "./types.js";

/**
 * Heading and label synonyms, by what the section says. `contains` phrases may appear anywhere
 * in the first few words of a heading; `exact` words are too common to trust inside a longer
 * heading ("How the task runner works" is not an objective) and must be the whole heading.
 */
const SYNONYMS: Record<SectionKind, { contains: string[]; exact: string[] }> = {
  objective: {
    contains: ["objective", "objectives", "goal", "goals", "intent", "intention", "purpose", "mission", "current task", "task description", "problem statement", "user intent", "resume focus"],
    exact: ["task", "aim", "why"],
  },
  progress: {
    contains: ["progress", "work completed", "completed work", "completed", "accomplished", "what was done", "done so far", "work done", "changes made", "what changed", "so far", "achievements"],
    exact: ["done", "changes", "history"],
  },
  decisions: {
    contains: [
      "decisions",
      "decision",
      "constraints",
      "constraint",
      "rejected alternatives",
      "alternatives",
      "alternatives rejected",
      "trade offs",
      "tradeoffs",
      "design choices",
      "rationale",
      "invariants",
      "non goals",
      "assumptions",
    ],
    exact: [],
  },
  current_state: {
    contains: [
      "current state",
      "state of play",
      "where things stand",
      "where we are",
      "where we left off",
      "where i left off",
      "status",
      "state of the work",
      "situation",
      "snapshot",
      // "In progress" is where the work stands, not what was done: it starts before "progress" does.
      "in progress",
      "work in progress",
      "ongoing",
    ],
    exact: ["state", "now"],
  },
  unfinished: {
    contains: [
      "unfinished",
      "next steps",
      "next step",
      "next actions",
      "todo",
      "to do",
      "todos",
      "blockers",
      "blocker",
      "blocked",
      "open threads",
      "open questions",
      "open issues",
      "remaining",
      "pending",
      "follow up",
      "follow ups",
      "outstanding",
      "not done",
      "incomplete",
      "what s next",
      "whats next",
      "left to do",
    ],
    exact: ["next", "open"],
  },
  verification: {
    contains: ["verification", "verified", "tests", "testing", "test results", "test plan", "validation", "checks performed"],
    exact: ["checks", "ci"],
  },
  failed: {
    contains: [
      "tried and failed",
      "failed approaches",
      "failed approach",
      "failed attempts",
      "what failed",
      "what didn t work",
      "what did not work",
      "didn t work",
      "did not work",
      "dead ends",
      "dead end",
      "tried but failed",
      "approaches tried",
      "attempts that failed",
      "things tried",
    ],
    exact: ["tried", "failures", "failed"],
  },
  warnings: {
    contains: ["warnings", "warning", "caveats", "caveat", "gotchas", "pitfalls", "risks", "known issues", "watch out"],
    exact: ["careful"],
  },
  references: {
    contains: ["references", "reference", "links", "pointers", "resources", "relevant files", "key files", "sources", "see also", "artifacts"],
    exact: ["files", "related"],
  },
};

/** A synonym must start within this many words of a heading's start (after numbering). */
const MAX_LEADING_WORDS = 2;

const KINDS = Object.keys(SYNONYMS) as SectionKind[];
const EXACT = new Map<string, SectionKind>(KINDS.flatMap((kind) => SYNONYMS[kind].exact.map((word) => [word, kind] as const)));
const PHRASES_BY_FIRST_WORD = new Map<string, { kind: SectionKind; words: string[]; length: number }[]>();
for (const kind of KINDS) {
  for (const phrase of SYNONYMS[kind].contains) {
    const words = phrase.split(" ");
    const list = PHRASES_BY_FIRST_WORD.get(words[0] ?? "") ?? [];
    list.push({ kind, words, length: phrase.length });
    PHRASES_BY_FIRST_WORD.set(words[0] ?? "", list);
  }
}

/**
 * The section kind a heading or label names, or undefined when it names none.
 * The synonym that starts earliest wins; at the same position, the longer phrase.
 *
 * @example
 * ```ts
 * classifySectionLabel("7. Unfinished work, blockers, and fragile local state") // "unfinished"
 * classifySectionLabel("Plausible next steps") // "unfinished"
 * classifySectionLabel("How the task runner works") // undefined
 * ```
 */
export function classifySectionLabel(label: string): SectionKind | undefined {
  const words = normaliseLabel(label);
  if (words.length === 0) return undefined;
  const exact = EXACT.get(words.join(" "));
  if (exact !== undefined) return exact;
  let best: { kind: SectionKind; at: number; length: number } | undefined;
  for (let at = 0; at < Math.min(MAX_LEADING_WORDS, words.length); at++) {
    for (const { kind, words: phrase, length } of PHRASES_BY_FIRST_WORD.get(words[at] ?? "") ?? []) {
      if (!startsAt(words, phrase, at)) continue;
      if (!best || at < best.at || (at === best.at && length > best.length)) best = { kind, at, length };
    }
  }
  return best?.kind;
}

function normaliseLabel(label: string): string[] {
  // Discovery's words (an ASCII label never builds the Unicode classes: about 1 ms of a command's CPU).
  const words = wordTokens(label);
  // Leading section numbers ("7.", "2)", "iv") say nothing about the section.
  while (words.length > 1 && /^(\d+|[ivx]{1,4})$/.test(words[0] ?? "")) words.shift();
  return words;
}

function startsAt(words: string[], phrase: string[], at: number): boolean {
  return phrase.every((word, j) => words[at + j] === word);
}
