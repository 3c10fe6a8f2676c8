import { z } from "zod";
import { describeAge } from "./age.js";
import { wordTokens } from "./fold.js";
import { normaliseRepository, sameCommit } from "./repo-identity.js";

/**
 * Ranking of discovery candidates from what discovery may read: bounded frontmatter, the file
 * name, the location and filesystem metadata. Never a body.
 */

/** The frontmatter fields ranking uses; a structural subset of the ce-handoff/v1 frontmatter. */
export interface CandidateFrontmatter {
  title?: string;
  summary?: string;
  keywords?: string[];
  created_at?: string;
  cwd?: string;
  repository?: string;
  repo_root_sha?: string;
  branch?: string;
  head?: string;
  worktree_path?: string;
  resume_focus?: string;
}

export interface CandidateMeta {
  path: string;
  /** false: no frontmatter within bounds; ranked by file name and age only. */
  indexed: boolean;
  mtimeMs: number;
  fileName: string;
  frontmatter?: CandidateFrontmatter;
}

export interface RankQuery {
  keywords: string[];
  /** Epoch milliseconds, passed in so ranking is a pure function. */
  now: number;
  current: {
    cwd: string;
    repository?: string;
    repo_root_sha?: string;
    worktree_path?: string;
    toplevel?: string;
    branch?: string;
  };
}

export interface RankedCandidate extends CandidateMeta {
  /** 0 means not relevant (keywords were given and none matched); see `relevant`. */
  score: number;
  reasons: string[];
  /** created_at when indexed and parseable, else mtime: the recency the score used. */
  timestampMs: number;
}

const optionalString = z.string().optional().catch(undefined);

/**
 * Picks the ranking fields from frontmatter written by any tool: a field of the wrong type is
 * dropped rather than failing the whole candidate, because metadata is an index, not a gate.
 *
 * @example
 * ```ts
 * candidateFrontmatter({ title: "Auth", keywords: ["a", 3], cwd: 7 })
 * // { title: "Auth", keywords: ["a"] }
 * ```
 */
export function candidateFrontmatter(data: unknown): CandidateFrontmatter {
  const parsed = CandidateFrontmatterSchema.safeParse(data);
  if (!parsed.success) return {};
  const out: CandidateFrontmatter = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

const CandidateFrontmatterSchema = z.object({
  title: optionalString,
  summary: optionalString,
  keywords: z
    .array(z.unknown())
    .transform((items) => items.filter((item): item is string => typeof item === "string"))
    .optional()
    .catch(undefined),
  created_at: optionalString,
  cwd: optionalString,
  repository: optionalString,
  repo_root_sha: optionalString,
  branch: optionalString,
  head: optionalString,
  worktree_path: optionalString,
  resume_focus: optionalString,
});

// Title hits weigh most: a title is what a person wrote to tell handoffs apart.
const FIELD_WEIGHTS = [
  { field: "title", says: "title matches", exact: 6, prefix: 3.5 },
  { field: "keywords", says: "keywords include", exact: 4, prefix: 2.5 },
  { field: "resume focus", says: "resume focus matches", exact: 3, prefix: 1.8 },
  { field: "summary", says: "summary matches", exact: 2, prefix: 1.2 },
  { field: "file name", says: "file name matches", exact: 2, prefix: 1.2 },
] as const;

const WEIGHT = {
  coverage: 4,
  keywordOverlap: 2,
  repoRoot: 5,
  repository: 3,
  location: 1.5,
  branch: 1,
  worktree: 2,
  cwdSame: 2,
  cwdRelated: 1,
  insideCheckout: 1,
  recency: 3,
} as const;

/** Hours for the recency signal to halve; hyperbolic so it never reaches zero. */
const RECENCY_HALF_HOURS = 48;
/** Keeps every candidate above zero when no keywords were given: all are relevant then. */
const FLOOR = 0.001;

/**
 * Scores and orders candidates, best first, each with plain-word reasons.
 *
 * @example
 * ```ts
 * const [best] = rankCandidates(candidates, { keywords: ["auth"], now: Date.now(), current: { cwd } });
 * best.reasons // ["title matches 'auth'", "same repository (root 1a2b3c4d)", "created 2 hours ago"]
 * ```
 */
export function rankCandidates(candidates: CandidateMeta[], query: RankQuery): RankedCandidate[] {
  const queryTokens = [...new Set(query.keywords.flatMap(wordTokens))];
  const queryKeywords = [...new Set(query.keywords.map(normalisedKeyword).filter((k) => k.length > 0))];
  const ranked = candidates.map((candidate) => scoreCandidate(candidate, query, queryTokens, queryKeywords));
  return ranked.sort(compareRanked);
}

/** Whether a ranked candidate belongs in the shortlist at all. */
export function relevant(candidate: { score: number }): boolean {
  return candidate.score > 0;
}

function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.timestampMs !== b.timestampMs) return b.timestampMs - a.timestampMs;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function scoreCandidate(
  candidate: CandidateMeta,
  query: RankQuery,
  queryTokens: string[],
  queryKeywords: string[],
): RankedCandidate {
  const fm = candidate.indexed ? (candidate.frontmatter ?? {}) : {};
  const reasons: string[] = [];
  if (!candidate.indexed) reasons.push("unindexed: no frontmatter, ranked by file name and age only");

  const keywordPart = keywordScore(candidate, fm, queryTokens, queryKeywords, reasons);
  const timestampMs = recencyTimestamp(candidate, fm);
  if (queryTokens.length > 0 && keywordPart === 0) {
    return { ...candidate, score: 0, reasons: [...reasons, "no keyword matches"], timestampMs };
  }

  let score = keywordPart;
  score += affinityScore(candidate, fm, query.current, reasons);
  const ageMs = Math.max(0, query.now - timestampMs);
  if (Number.isFinite(ageMs)) {
    score += WEIGHT.recency / (1 + ageMs / 3_600_000 / RECENCY_HALF_HOURS);
    const verb = candidate.indexed && parsedTime(fm.created_at) !== undefined ? "created" : "modified";
    reasons.push(`${verb} ${describeAge(ageMs)}`);
  }
  return { ...candidate, score: round(Math.max(score, FLOOR)), reasons, timestampMs };
}

function keywordScore(
  candidate: CandidateMeta,
  fm: CandidateFrontmatter,
  queryTokens: string[],
  queryKeywords: string[],
  reasons: string[],
): number {
  if (queryTokens.length === 0) return 0;
  const fields: Record<(typeof FIELD_WEIGHTS)[number]["field"], string[]> = {
    title: wordTokens(fm.title ?? ""),
    keywords: (fm.keywords ?? []).flatMap(wordTokens),
    "resume focus": wordTokens(fm.resume_focus ?? ""),
    summary: wordTokens(fm.summary ?? ""),
    "file name": wordTokens(candidate.fileName.replace(/\.[^.]*$/, "")),
  };
  let score = 0;
  const matched = new Set<string>();
  for (const { field, says, exact, prefix } of FIELD_WEIGHTS) {
    const hits: string[] = [];
    for (const token of queryTokens) {
      const weight = tokenWeight(token, fields[field], exact, prefix);
      if (weight === 0) continue;
      score += weight;
      hits.push(token);
      matched.add(token);
    }
    if (hits.length > 0) reasons.push(`${says} ${quoteList(hits)}`);
  }
  if (matched.size === 0) return 0;
  score += (WEIGHT.coverage * matched.size) / queryTokens.length;

  const own = new Set((fm.keywords ?? []).map(normalisedKeyword));
  const overlap = queryKeywords.filter((keyword) => own.has(keyword));
  if (overlap.length > 0) {
    score += WEIGHT.keywordOverlap * overlap.length;
    reasons.push(`keywords overlap: ${quoteList(overlap)} (${overlap.length} of ${queryKeywords.length})`);
  }
  return score;
}

function tokenWeight(token: string, fieldTokens: string[], exact: number, prefix: number): number {
  let best = 0;
  for (const candidate of fieldTokens) {
    if (candidate === token) return exact;
    // Two letters at least: a one-letter prefix matches nearly everything.
    if (token.length >= 2 && candidate.startsWith(token)) best = prefix;
  }
  return best;
}

function affinityScore(
  candidate: CandidateMeta,
  fm: CandidateFrontmatter,
  current: RankQuery["current"],
  reasons: string[],
): number {
  let score = 0;
  let sameRepo = false;
  if (fm.repo_root_sha && current.repo_root_sha && sameCommit(fm.repo_root_sha, current.repo_root_sha)) {
    score += WEIGHT.repoRoot;
    sameRepo = true;
    reasons.push(`same repository (root ${current.repo_root_sha.slice(0, 8)})`);
  } else if (fm.repository && current.repository && normaliseRepository(fm.repository) === normaliseRepository(current.repository)) {
    score += WEIGHT.repository;
    sameRepo = true;
    reasons.push(`same repository (${fm.repository})`);
  } else if (current.repo_root_sha && storedUnderNamespace(candidate.path, current.repo_root_sha)) {
    score += WEIGHT.location;
    reasons.push("stored in this repository's handoff folder");
  }
  if (sameRepo && fm.branch && current.branch && fm.branch === current.branch) {
    score += WEIGHT.branch;
    reasons.push(`same branch '${fm.branch}'`);
  }
  const here = current.worktree_path ?? current.toplevel;
  if (fm.worktree_path && here && samePath(fm.worktree_path, here)) {
    score += WEIGHT.worktree;
    reasons.push("same worktree");
  }
  if (fm.cwd) score += cwdAffinity(fm.cwd, current, reasons);
  return score;
}

function cwdAffinity(cwd: string, current: RankQuery["current"], reasons: string[]): number {
  const captured = trimSlashes(cwd);
  const now = trimSlashes(current.cwd);
  if (captured === now) {
    reasons.push("same working directory");
    return WEIGHT.cwdSame;
  }
  if (isInside(now, captured)) {
    reasons.push(`captured in a parent directory (${captured})`);
    return WEIGHT.cwdRelated;
  }
  if (isInside(captured, now)) {
    reasons.push(`captured in a subdirectory (${captured})`);
    return WEIGHT.cwdRelated;
  }
  if (current.toplevel && isInside(captured, trimSlashes(current.toplevel))) {
    reasons.push("captured inside this checkout");
    return WEIGHT.insideCheckout;
  }
  return 0;
}

function recencyTimestamp(candidate: CandidateMeta, fm: CandidateFrontmatter): number {
  const created = parsedTime(fm.created_at);
  if (created !== undefined) return created;
  return Number.isFinite(candidate.mtimeMs) ? candidate.mtimeMs : 0;
}

function parsedTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : undefined;
}

function normalisedKeyword(keyword: string): string {
  return wordTokens(keyword).join(" ");
}

/** The managed store names folders `<repo>-<first 12 hex of the root commit>`. */
function storedUnderNamespace(path: string, rootSha: string): boolean {
  const suffix = `-${rootSha.toLowerCase().slice(0, 12)}`;
  if (suffix.length < 8) return false;
  return path
    .split(/[\\/]/)
    .slice(0, -1)
    .some((segment) => segment.toLowerCase().endsWith(suffix));
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

function samePath(a: string, b: string): boolean {
  return trimSlashes(a) === trimSlashes(b);
}

function isInside(child: string, parent: string): boolean {
  return parent === "/" ? child.startsWith("/") && child !== "/" : child.startsWith(`${parent}/`);
}

function quoteList(items: string[]): string {
  return items.map((item) => `'${item}'`).join(", ");
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
