import { CE_KEY_ORDER } from "../ce/contract.js";
import { NOT_FLAT, literalValue, strictUtf8Text, walkFlat } from "../ce/frontmatter-scan.js";
import type { CandidateFrontmatter } from "./rank.js";

/**
 * Discovery's index straight from a flat frontmatter block: what
 * `candidateFrontmatter(parseFlat(text))` gives, without the record in between. Ten thousand
 * candidates each made a record of every key (a new object shape per key added), then a copy of
 * the ranking fields; here a value ranking does not use is only checked, and one object is built.
 *
 * Undefined exactly when the block is not flat (a line outside the grammar, a literal that is not
 * JSON, a duplicate key): the caller then hands the text to the YAML fallback, as for the record.
 * test/shared/discover/index-flat.test.ts holds the two paths to the same answers.
 *
 * @example
 * ```ts
 * indexFlatFrontmatter('title: "Auth"\nkeywords: ["a", 3]\ncwd: 7\n') // { title: "Auth", keywords: ["a"] }
 * indexFlatFrontmatter('title: "a"\ntitle: "b"\n')                     // undefined (duplicate key)
 * ```
 */
export function indexFlatFrontmatter(text: string): CandidateFrontmatter | undefined {
  const out: CandidateFrontmatter = {};
  let seen = 0;
  const others: string[] = [];
  const flat = walkFlat(text, (key, plain, literal) => {
    const known = KEY_INDEX.get(key);
    if (known === undefined) {
      // A key of another tool's: only a duplicate matters (YAML refuses those).
      if (others.includes(key)) return false;
      others.push(key);
      return plain !== undefined || literalValue(literal!) !== NOT_FLAT;
    }
    if (seen & (1 << known)) return false;
    seen |= 1 << known;
    const field = CE_KEY_ORDER[known]!;
    if (field === "artifact_contract") return plain !== undefined || literalValue(literal!) !== NOT_FLAT;
    const value = plain ?? literalValue(literal!);
    if (value === NOT_FLAT) return false;
    if (field === "keywords") {
      if (Array.isArray(value)) out.keywords = value.filter((item): item is string => typeof item === "string");
    } else if (typeof value === "string") {
      // A field of the wrong type is dropped, as candidateFrontmatter drops it: an index, not a gate.
      setField(out, field, value);
    }
    return true;
  });
  return flat ? out : undefined;
}

const KEY_INDEX = new Map<string, number>(CE_KEY_ORDER.map((key, i) => [key, i]));

// A quoted string with nothing to unescape, and a keyword list of such strings as the serialiser
// writes it (shared/ce/serialize.ts: `[` items joined by `, ` `]`).
// U+FFFD is left out too: it is what a lenient decode makes of a byte that is not UTF-8
// (indexWrittenText may be given such text), and a value that truly holds one takes the general path.
const STRING_CHARS = '[^"\\\\\\u0000-\\u001f\\ufffd]*';
const LIST_ITEMS = `(?:"${STRING_CHARS}"(?:, "${STRING_CHARS}")*)?`;
/** The keys the index holds; the others' values are matched, not captured (no string is made for them). */
const INDEXED: ReadonlySet<string> = new Set([
  "title",
  "summary",
  "keywords",
  "created_at",
  "cwd",
  "repository",
  "repo_root_sha",
  "branch",
  "head",
  "worktree_path",
  "resume_focus",
] satisfies (keyof CandidateFrontmatter)[]);

/** A key's value as create writes it; `capture`: its text (a keyword list's inside its brackets) as a group. */
function writtenValue(key: string, capture: boolean): string {
  // `dirty`, the one boolean create writes (every handoff made in a git checkout has it).
  if (key === "dirty") return "(?:true|false)";
  const inside = key === "keywords" ? LIST_ITEMS : STRING_CHARS;
  const text = capture ? `(${inside})` : inside;
  return key === "keywords" ? `\\[${text}\\]` : `"${text}"`;
}

/**
 * A whole head exactly as `handoff create` writes it: the opener, any of the contract's keys once
 * each in the contract's order with plain values (`dirty` a bare boolean), the closing delimiter.
 * Each indexed key's value is captured, in GROUP's group.
 */
const WRITTEN_SHAPE = new RegExp(`^---\\r?\\n${CE_KEY_ORDER.map((key) => `(?:${key}: ${writtenValue(key, INDEXED.has(key))}\\r?\\n)?`).join("")}---\\r?\\n$`);

/**
 * The index of a head (opener to closing delimiter, as discovery reads it) in exactly the shape
 * `handoff create` writes, from one match of one expression; undefined for anything else, which
 * then takes the general path (the delimiter and bound checks, then
 * {@link indexFlatFrontmatter}). The same answer as that path wherever it matches: each value is
 * a string with nothing to unescape, each key comes once, the lines are within every bound. In a
 * process that has only just started this takes under half the general path's time, since the
 * expression runs as compiled code from the first candidate.
 */
export function indexWrittenShape(head: Uint8Array): CandidateFrontmatter | undefined {
  const text = strictUtf8Text(head);
  return text === undefined ? undefined : indexWrittenText(text);
}

/**
 * {@link indexWrittenShape} of a head's text. The text may come from a lenient decode (a byte
 * that is not UTF-8 read as U+FFFD): the shape admits no U+FFFD, so such a head is never indexed
 * here. The shape also proves the text is the whole head as the contract bounds it: a handful of
 * `key: value` lines between the delimiters, so no earlier delimiter line and under 64 lines.
 */
export const indexWrittenText = writtenTextIndexer({ keywords: true });

/**
 * indexWrittenText, or (`keywords: false`) the same index without `keywords`, for a ranking that
 * never reads them: a search without keywords. Splitting ten thousand keyword lists that nothing
 * read cost 0.9–2.2 µs of a candidate's 14–19 on Node 24–20, in a process that had just started
 * (issue 26).
 */
export function writtenTextIndexer(options: { keywords: boolean }): (text: string) => CandidateFrontmatter | undefined {
  const withKeywords = options.keywords;
  return (text) => {
    const match = WRITTEN_SHAPE.exec(text);
    if (match === null) return undefined;
    const keywords = withKeywords ? match[GROUP.keywords] : undefined;
    // One literal, so every candidate's index has one shape (a field the head lacks is undefined,
    // which readers treat as absent): no loop over the keys, and ranking's loads stay monomorphic.
    return {
      title: match[GROUP.title],
      summary: match[GROUP.summary],
      keywords: keywords === undefined ? undefined : keywords === "" ? [] : keywords.slice(1, -1).split('", "'),
      created_at: match[GROUP.created_at],
      cwd: match[GROUP.cwd],
      repository: match[GROUP.repository],
      repo_root_sha: match[GROUP.repo_root_sha],
      branch: match[GROUP.branch],
      head: match[GROUP.head],
      worktree_path: match[GROUP.worktree_path],
      resume_focus: match[GROUP.resume_focus],
    };
  };
}

/** The capture group of each indexed key in WRITTEN_SHAPE: groups count the indexed keys in the contract's order. */
const GROUP = Object.fromEntries(CE_KEY_ORDER.filter((key) => INDEXED.has(key)).map((key, i) => [key, i + 1])) as Record<keyof CandidateFrontmatter, number>;

type IndexedString = Exclude<(typeof CE_KEY_ORDER)[number], "artifact_contract" | "keywords">;

/**
 * One named store per field: a store through a computed key (`out[field]`) took the slow,
 * generic path for every field of every candidate.
 */
function setField(out: CandidateFrontmatter, field: IndexedString, value: string): void {
  switch (field) {
    case "created_at":
      out.created_at = value;
      break;
    case "title":
      out.title = value;
      break;
    case "summary":
      out.summary = value;
      break;
    case "cwd":
      out.cwd = value;
      break;
    case "resume_focus":
      out.resume_focus = value;
      break;
    case "repository":
      out.repository = value;
      break;
    case "repo_root_sha":
      out.repo_root_sha = value;
      break;
    case "branch":
      out.branch = value;
      break;
    case "head":
      out.head = value;
      break;
    case "worktree_path":
      out.worktree_path = value;
      break;
  }
}
