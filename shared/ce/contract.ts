/**
 * The ce-handoff/v1 names that writing needs, kept apart from the zod schema so `handoff create`
 * can serialise without loading zod (start-up time is a product feature here).
 *
 * @example
 * ```ts
 * CE_KEY_ORDER[0] // "artifact_contract"
 * ```
 */
export const CE_CONTRACT = "ce-handoff/v1";

/**
 * The keys we write, in the order the contract lists them, then three capture facts of our own
 * (other ce-handoff readers keep unknown keys: the contract's frontmatter is open). `dirty` and
 * `dirty_tree_sha256` say whether the checkout had uncommitted changes when the handoff was
 * written (the sha256 of `git diff --binary HEAD`, as kernel's provenance has it), so resume can
 * report dirty_changed; `changes` names the bundle of those changes written beside the handoff
 * (create --with-changes). None is a lifecycle field: each is true of the capture forever.
 */
export const CE_KEY_ORDER = [
  "artifact_contract",
  "created_at",
  "title",
  "summary",
  "keywords",
  "cwd",
  "resume_focus",
  "repository",
  "repo_root_sha",
  "branch",
  "head",
  "worktree_path",
  "dirty",
  "dirty_tree_sha256",
  "changes",
] as const;

/** What `handoff create` writes. Optional fields are present only when they apply. */
export interface CeFields {
  artifact_contract: typeof CE_CONTRACT;
  created_at: string;
  title: string;
  summary: string;
  keywords: string[];
  cwd: string;
  resume_focus?: string;
  repository?: string;
  repo_root_sha?: string;
  branch?: string;
  head?: string;
  worktree_path?: string;
  dirty?: boolean;
  dirty_tree_sha256?: string;
  /** The changes bundle's file name, in the handoff's own folder. */
  changes?: string;
}

/** Frontmatter limits for discovery: the contract's "at most the first 64 lines or 16 KiB". */
export const FRONTMATTER_MAX_LINES = 64;
export const FRONTMATTER_MAX_BYTES = 16 * 1024;
/**
 * The most keywords a handoff takes: keywords are written as one flow list (`keywords: ["a", "b"]`)
 * inside the FRONTMATTER_MAX_BYTES discovery reads, and the shortest keyword costs 4 bytes there
 * (`"a",`), so more than this can never be indexed. Refused rather than trimmed: the caller meant
 * something else (a list of files? a transcript?).
 */
export const MAX_KEYWORDS = FRONTMATTER_MAX_BYTES / 4;
