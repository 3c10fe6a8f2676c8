import { CE_KEY_ORDER } from "../ce/contract.js";
import { NOT_FLAT, literalValue, walkFlat } from "../ce/frontmatter-scan.js";
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
