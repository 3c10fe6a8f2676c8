import { timestampMs as parseTimestamp } from "../time/timestamps.js";
import { describeAge } from "./age.js";
import { foldText, wordTokens, wordTokensContaining } from "./fold.js";
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
  /**
   * The modification time of a candidate that has none yet (`mtimeMs` NaN), asked for only when
   * its frontmatter gives no creation time: discovery then stats just those few files. The
   * answer is kept on the candidate, so `explain` later gives the same score.
   */
  mtimeOf?: (candidate: CandidateMeta) => number;
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
  if (data === null || typeof data !== "object" || Array.isArray(data)) return {};
  const record = data as Record<string, unknown>;
  const out: CandidateFrontmatter = {};
  // Plain checks, not a schema: discovery calls this for every candidate, thousands at a time.
  for (const key of STRING_FIELDS) {
    const value = record[key];
    if (typeof value === "string") out[key] = value;
  }
  if (Array.isArray(record.keywords)) out.keywords = record.keywords.filter((item): item is string => typeof item === "string");
  return out;
}

const STRING_FIELDS = ["title", "summary", "created_at", "cwd", "repository", "repo_root_sha", "branch", "head", "worktree_path", "resume_focus"] as const;

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
/**
 * One query's scoring, for callers that rank as they go (discovery keeps only a shortlist in
 * memory): `score` without reasons, `explain` with them (same score), `compare` for sorting.
 *
 * @example
 * ```ts
 * const ranker = createRanker(query);
 * const best = candidates.map(ranker.score).sort(ranker.compare).slice(0, 5).map(ranker.explain);
 * ```
 */
export function createRanker(query: RankQuery) {
  const prepared = prepareQuery(query);
  return {
    score: (candidate: CandidateMeta): RankedCandidate => scoreCandidate(candidate, prepared, undefined),
    explain: (candidate: CandidateMeta): RankedCandidate => scoreCandidate(candidate, prepared, []),
    compare: compareRanked,
    /** Whether scoring reads a candidate's `keywords` at all: only a search with words does, so an index may leave them out otherwise. */
    readsKeywords: prepared.tokens.length > 0,
  };
}

export function rankCandidates(candidates: CandidateMeta[], query: RankQuery, options: { explainTop?: number } = {}): RankedCandidate[] {
  const prepared = prepareQuery(query);
  const explainTop = options.explainTop ?? Number.POSITIVE_INFINITY;
  if (explainTop >= candidates.length) return candidates.map((candidate) => scoreCandidate(candidate, prepared, [])).sort(compareRanked);
  // Thousands of candidates, a shortlist of a few: score them all, put reasons into words only
  // for the ones that will be shown (the same scoring, so the order cannot change).
  const ranked = candidates.map((candidate) => scoreCandidate(candidate, prepared, undefined)).sort(compareRanked);
  for (let i = 0; i < explainTop && i < ranked.length; i++) {
    const { score: _score, reasons: _reasons, timestampMs: _time, ...candidate } = ranked[i]!;
    ranked[i] = scoreCandidate(candidate, prepared, []);
  }
  return ranked;
}

/**
 * Whether a ranked candidate belongs in the shortlist at all.
 *
 * @example
 * ```ts
 * rankCandidates(candidates, query).filter(relevant).slice(0, limit)
 * ```
 */
export function relevant(candidate: { score: number }): boolean {
  return candidate.score > 0;
}

/** The query side, normalised once: discovery scores thousands of candidates against it. */
interface PreparedQuery {
  tokens: string[];
  keywords: string[];
  now: number;
  mtimeOf?: (candidate: CandidateMeta) => number;
  rootSha?: string;
  repository?: string;
  branch?: string;
  here?: string;
  cwd: string;
  toplevel?: string;
  /** `-<first 12 hex of the root commit>`: the ending of this repository's store folder. */
  namespaceSuffix?: string;
  /** Each repository spelling seen, normalised. */
  repositories: Map<string, string>;
  /** storedUnderNamespace's last folder (with its separator) and answer: a store holds thousands of files in a few folders, visited folder by folder. */
  lastFolder?: { prefix: string; stored: boolean };
}

function prepareQuery(query: RankQuery): PreparedQuery {
  const { current } = query;
  const here = current.worktree_path ?? current.toplevel;
  return {
    tokens: [...new Set(query.keywords.flatMap(wordTokens))],
    keywords: [...new Set(query.keywords.map(normalisedKeyword).filter((k) => k.length > 0))],
    now: query.now,
    ...(query.mtimeOf ? { mtimeOf: query.mtimeOf } : {}),
    cwd: trimSlashes(current.cwd),
    ...(current.repo_root_sha ? { rootSha: current.repo_root_sha } : {}),
    ...(current.repository ? { repository: normaliseRepository(current.repository) } : {}),
    ...(current.branch ? { branch: current.branch } : {}),
    ...(here ? { here: trimSlashes(here) } : {}),
    ...(current.toplevel ? { toplevel: trimSlashes(current.toplevel) } : {}),
    ...(current.repo_root_sha && current.repo_root_sha.length >= 7 ? { namespaceSuffix: `-${current.repo_root_sha.toLowerCase().slice(0, 12)}` } : {}),
    repositories: new Map(),
  };
}

function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.timestampMs !== b.timestampMs) return b.timestampMs - a.timestampMs;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** What an unindexed candidate (or one without frontmatter) is scored by: nothing. Never written to. */
const NO_FRONTMATTER: Readonly<CandidateFrontmatter> = Object.freeze({});

/** `reasons` undefined: score only (the optional pushes then never build their strings). */
function scoreCandidate(candidate: CandidateMeta, query: PreparedQuery, reasons: string[] | undefined): RankedCandidate {
  const fm = (candidate.indexed ? candidate.frontmatter : undefined) ?? NO_FRONTMATTER;
  if (!candidate.indexed) reasons?.push("unindexed: no frontmatter, ranked by file name and age only");

  const keywordPart = keywordScore(candidate, fm, query, reasons);
  const created = createdAtMs(candidate);
  if (created === undefined && Number.isNaN(candidate.mtimeMs) && query.mtimeOf) candidate.mtimeMs = query.mtimeOf(candidate);
  const timestampMs = created ?? (Number.isFinite(candidate.mtimeMs) ? candidate.mtimeMs : 0);
  if (query.tokens.length > 0 && keywordPart === 0) {
    reasons?.push("no keyword matches");
    return rankedFrom(candidate, 0, reasons ?? [], timestampMs);
  }

  let score = keywordPart + affinityScore(candidate, fm, query, reasons);
  const ageMs = Math.max(0, query.now - timestampMs);
  if (Number.isFinite(ageMs)) {
    score += WEIGHT.recency / (1 + ageMs / 3_600_000 / RECENCY_HALF_HOURS);
    reasons?.push(`${created === undefined ? "modified" : "created"} ${describeAge(ageMs)}`);
  }
  return rankedFrom(candidate, round(Math.max(score, FLOOR)), reasons ?? [], timestampMs);
}

/** Built field by field: an object spread costs microseconds here, and discovery ranks thousands. */
function rankedFrom(candidate: CandidateMeta, score: number, reasons: string[], timestampMs: number): RankedCandidate {
  const ranked: RankedCandidate = { path: candidate.path, indexed: candidate.indexed, mtimeMs: candidate.mtimeMs, fileName: candidate.fileName, score, reasons, timestampMs };
  if (candidate.frontmatter !== undefined) ranked.frontmatter = candidate.frontmatter;
  return ranked;
}

function keywordScore(candidate: CandidateMeta, fm: CandidateFrontmatter, query: PreparedQuery, reasons: string[] | undefined): number {
  if (query.tokens.length === 0) return 0;
  // Every token or prefix hit is a substring hit, so one scan rules most of a large store out
  // before any tokenising.
  const fileStem = candidate.fileName.replace(/\.[^.]*$/, "");
  const haystack = foldText(`${fm.title ?? ""} ${fm.summary ?? ""} ${fm.resume_focus ?? ""} ${(fm.keywords ?? []).join(" ")} ${fileStem}`);
  if (!query.tokens.some((token) => haystack.includes(token))) return 0;
  const fields: Record<(typeof FIELD_WEIGHTS)[number]["field"], string[]> = {
    // A field that holds none of the searched words is not split: none of its words could score.
    title: wordTokensContaining(fm.title ?? "", query.tokens),
    keywords: (fm.keywords ?? []).flatMap((keyword) => wordTokensContaining(keyword, query.tokens)),
    "resume focus": wordTokensContaining(fm.resume_focus ?? "", query.tokens),
    summary: wordTokensContaining(fm.summary ?? "", query.tokens),
    "file name": wordTokensContaining(fileStem, query.tokens),
  };
  let score = 0;
  let matched = 0;
  const seen = new Set<string>();
  for (const { field, says, exact, prefix } of FIELD_WEIGHTS) {
    let hits: string[] | undefined;
    for (const token of query.tokens) {
      const weight = tokenWeight(token, fields[field], exact, prefix);
      if (weight === 0) continue;
      score += weight;
      hits ??= [];
      hits.push(token);
      if (!seen.has(token)) {
        seen.add(token);
        matched++;
      }
    }
    if (hits) reasons?.push(`${says} ${quoteList(hits)}`);
  }
  if (matched === 0) return 0;
  score += (WEIGHT.coverage * matched) / query.tokens.length;

  if (fm.keywords && fm.keywords.length > 0) {
    // A keyword without any searched word is "" here: it cannot be one of the query's keywords.
    const own = new Set(fm.keywords.map((keyword) => wordTokensContaining(keyword, query.tokens).join(" ")));
    const overlap = query.keywords.filter((keyword) => own.has(keyword));
    if (overlap.length > 0) {
      score += WEIGHT.keywordOverlap * overlap.length;
      reasons?.push(`keywords overlap: ${quoteList(overlap)} (${overlap.length} of ${query.keywords.length})`);
    }
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

function affinityScore(candidate: CandidateMeta, fm: CandidateFrontmatter, query: PreparedQuery, reasons: string[] | undefined): number {
  let score = 0;
  let sameRepo = false;
  // The same spelling first: what this repository's own handoffs carry, with no trimming or case folding.
  if (fm.repo_root_sha && query.rootSha && (fm.repo_root_sha === query.rootSha || sameCommit(fm.repo_root_sha, query.rootSha))) {
    score += WEIGHT.repoRoot;
    sameRepo = true;
    reasons?.push(`same repository (root ${query.rootSha.slice(0, 8)})`);
  } else if (fm.repository && query.repository && normalisedRepository(fm.repository, query) === query.repository) {
    score += WEIGHT.repository;
    sameRepo = true;
    reasons?.push(`same repository (${fm.repository})`);
  } else if (query.namespaceSuffix && storedUnderNamespace(candidate.path, query)) {
    score += WEIGHT.location;
    reasons?.push("stored in this repository's handoff folder");
  }
  if (sameRepo && fm.branch && fm.branch === query.branch) {
    score += WEIGHT.branch;
    reasons?.push(`same branch '${fm.branch}'`);
  }
  if (fm.worktree_path && query.here && trimSlashes(fm.worktree_path) === query.here) {
    score += WEIGHT.worktree;
    reasons?.push("same worktree");
  }
  if (fm.cwd) score += cwdAffinity(trimSlashes(fm.cwd), query, reasons);
  return score;
}

function cwdAffinity(captured: string, query: PreparedQuery, reasons: string[] | undefined): number {
  if (captured === query.cwd) {
    reasons?.push("same working directory");
    return WEIGHT.cwdSame;
  }
  if (isInside(query.cwd, captured)) {
    reasons?.push(`captured in a parent directory (${captured})`);
    return WEIGHT.cwdRelated;
  }
  if (isInside(captured, query.cwd)) {
    reasons?.push(`captured in a subdirectory (${captured})`);
    return WEIGHT.cwdRelated;
  }
  if (query.toplevel && isInside(captured, query.toplevel)) {
    reasons?.push("captured inside this checkout");
    return WEIGHT.insideCheckout;
  }
  return 0;
}

/**
 * When an indexed candidate says it was created; undefined when it does not say (ranking then
 * dates it by `mtimeMs`, so discovery stats only the candidates this leaves undated).
 */
export function createdAtMs(candidate: Pick<CandidateMeta, "indexed" | "frontmatter">): number | undefined {
  const created = candidate.indexed ? candidate.frontmatter?.created_at : undefined;
  return created === undefined ? undefined : parseTimestamp(created);
}

function normalisedKeyword(keyword: string): string {
  return wordTokens(keyword).join(" ");
}

/**
 * normaliseRepository, asked once per spelling: a store's handoffs name a handful of repositories,
 * and four expression replaces per candidate were most of what ranking did for each.
 */
function normalisedRepository(repository: string, query: PreparedQuery): string {
  let normalised = query.repositories.get(repository);
  if (normalised === undefined) {
    normalised = normaliseRepository(repository);
    query.repositories.set(repository, normalised);
  }
  return normalised;
}

/** The managed store names folders `<repo>-<first 12 hex of the root commit>`. */
function storedUnderNamespace(path: string, query: PreparedQuery): boolean {
  // The last folder's answer when the path is in it (and not below it), without searching the
  // path backwards or splitting its folder again.
  const last = query.lastFolder;
  if (last !== undefined && path.startsWith(last.prefix) && path.indexOf("/", last.prefix.length) === -1 && path.indexOf("\\", last.prefix.length) === -1) return last.stored;
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const folder = cut < 0 ? "" : path.slice(0, cut);
  const suffix = query.namespaceSuffix!;
  const stored = folder.split(/[\\/]/).some((segment) => segment.toLowerCase().endsWith(suffix));
  if (cut >= 0) query.lastFolder = { prefix: path.slice(0, cut + 1), stored };
  return stored;
}

function trimSlashes(path: string): string {
  // Most paths end without a slash: no regex for them (discovery trims one per candidate).
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.replace(/\/+$/, "") : path;
}

function isInside(child: string, parent: string): boolean {
  if (parent === "/") return child.startsWith("/") && child !== "/";
  return child.length > parent.length && child.charCodeAt(parent.length) === 47 && child.startsWith(parent);
}

function quoteList(items: string[]): string {
  return items.map((item) => `'${item}'`).join(", ");
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
