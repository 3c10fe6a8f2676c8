import { join } from "node:path";
import { scanFrontmatter } from "../../shared/ce/frontmatter-scan.js";
import { type CandidateMeta, type RankQuery, candidateFrontmatter, rankCandidates, relevant } from "../../shared/discover/rank.js";
import type { HandoffError } from "../../shared/errors.js";
import { STORE_FOLDER, inspectManagedRoot } from "../store.js";
import { enumerateCandidates } from "./enumerate.js";
import { readCandidateHead } from "./read-head.js";

/**
 * Discovery without a selected source: bounded enumeration, bounded frontmatter reads, ranking,
 * a shortlist. Selects nothing and never reads a body.
 */

export interface DiscoverOptions {
  /** Folders to search: a user-given folder, or the managed roots' ce-handoff folders. */
  boundaries: { path: string; managed: boolean }[];
  keywords: string[];
  maxCandidates: number;
  limit: number;
  current: RankQuery["current"];
  now: number;
}

export interface ShortlistEntry {
  path: string;
  indexed: boolean;
  title: string | null;
  created_at: string | null;
  summary: string | null;
  score: number;
  reasons: string[];
  /** Why an unindexed candidate has no index (no frontmatter, no closing delimiter, ...). */
  unindexed_reason?: string;
  first_line?: string;
}

export interface DiscoveryResult {
  boundary: string[];
  filters: { keywords: string[]; max_candidates: number; limit: number };
  candidates: ShortlistEntry[];
  selected: null;
  /** How much was looked at, so "nothing found" can say what was searched. */
  searched: { files: number; relevant: number; truncated: boolean; skipped: { symlinks: number; special: number; escaped: number; overBound: number } };
  /** Roots that were refused (unsafe) and why; discovery goes on with the others. */
  warnings: string[];
}

/**
 * The whole discovery in one call. `handoff resume` runs the two halves itself, so the git
 * processes that ranking needs run while the store is walked.
 */
export async function discoverHandoffs(options: DiscoverOptions): Promise<DiscoveryResult> {
  const gathered = gatherCandidates(options);
  await indexYamlFrontmatter(gathered);
  return shortlist(gathered, options);
}

/** What enumeration and the bounded head reads found, before ranking. */
export interface Gathered {
  boundaries: string[];
  metas: CandidateMeta[];
  extra: Map<string, { unindexed_reason?: string; first_line?: string }>;
  files: number;
  truncated: boolean;
  skipped: DiscoveryResult["searched"]["skipped"];
  warnings: string[];
  /** Frontmatter other tools wrote in general YAML: indexed by indexYamlFrontmatter. */
  needsYaml: { meta: CandidateMeta; text: string }[];
}

/**
 * The YAML library loads only when some candidate needs it: frontmatter in our flat shape, the
 * usual case, never pays for it.
 */
export async function indexYamlFrontmatter(gathered: Gathered): Promise<void> {
  if (gathered.needsYaml.length === 0) return;
  const { parseYamlMapping } = await import("../../shared/ce/yaml-fallback.js");
  for (const { meta, text } of gathered.needsYaml) {
    const parsed = parseYamlMapping(text);
    if (parsed.ok) {
      meta.indexed = true;
      meta.frontmatter = candidateFrontmatter(parsed.value);
      gathered.extra.delete(meta.path);
    } else {
      gathered.extra.set(meta.path, { unindexed_reason: parsed.reason });
    }
  }
  gathered.needsYaml = [];
}

/** Enumerates the boundaries and reads each candidate's head within bounds; ranks nothing. */
export function gatherCandidates(options: Pick<DiscoverOptions, "boundaries" | "maxCandidates">): Gathered {
  const warnings: string[] = [];
  const boundaries: string[] = [];
  const metas: CandidateMeta[] = [];
  const needsYaml: Gathered["needsYaml"] = [];
  const extra = new Map<string, { unindexed_reason?: string; first_line?: string }>();
  const skipped = { symlinks: 0, special: 0, escaped: 0, overBound: 0 };
  let truncated = false;
  let files = 0;

  for (const boundary of options.boundaries) {
    let dir = boundary.path;
    if (boundary.managed) {
      const state = inspectManagedRoot(boundary.path);
      if (state === "missing") continue;
      if (state !== "ok") {
        warnings.push(`skipped the managed root: ${(state as HandoffError).message}`);
        continue;
      }
      // The ce-handoff folder gets the same check: a symlink there would lead discovery elsewhere.
      dir = join(boundary.path, STORE_FOLDER);
      const store = inspectManagedRoot(dir);
      if (store === "missing") continue;
      if (store !== "ok") {
        warnings.push(`skipped the managed store: ${(store as HandoffError).message}`);
        continue;
      }
    }
    let enumeration;
    try {
      enumeration = enumerateCandidates(dir, { maxCandidates: options.maxCandidates });
    } catch {
      continue; // no ce-handoff folder yet: nothing to find there
    }
    boundaries.push(enumeration.boundary);
    truncated ||= enumeration.truncated;
    for (const key of Object.keys(skipped) as (keyof typeof skipped)[]) skipped[key] += enumeration.skipped[key];
    for (const file of enumeration.candidates) {
      files++;
      const head = readCandidateHead(file.path);
      if (head.kind === "skipped") {
        skipped.special++;
        continue;
      }
      const meta: CandidateMeta = { path: file.path, indexed: false, mtimeMs: head.mtimeMs, fileName: file.fileName };
      if (head.kind === "first-line") {
        extra.set(file.path, { unindexed_reason: "no frontmatter", first_line: head.firstLine });
      } else {
        const read = scanFrontmatter(head.bytes);
        if (read.kind === "indexed") {
          meta.indexed = true;
          meta.frontmatter = candidateFrontmatter(read.data);
        } else if (read.kind === "needs_yaml") {
          needsYaml.push({ meta, text: read.text });
        } else {
          extra.set(file.path, { unindexed_reason: read.reason });
        }
      }
      metas.push(meta);
    }
  }
  return { boundaries, metas, extra, files, truncated, skipped, warnings, needsYaml };
}

/** Ranks what was gathered against the query and cuts the shortlist. */
export function shortlist(gathered: Gathered, options: Omit<DiscoverOptions, "boundaries">): DiscoveryResult {
  const { boundaries, metas, extra, files, truncated, skipped, warnings } = gathered;
  const ranked = rankCandidates(metas, { keywords: options.keywords, now: options.now, current: options.current }, { explainTop: options.limit }).filter(relevant);
  const candidates = ranked.slice(0, options.limit).map((c): ShortlistEntry => {
    const entry: ShortlistEntry = {
      path: c.path,
      indexed: c.indexed,
      title: c.frontmatter?.title ?? null,
      created_at: c.frontmatter?.created_at ?? null,
      summary: c.frontmatter?.summary ?? null,
      score: Math.round(c.score * 1000) / 1000,
      reasons: c.reasons,
    };
    const more = extra.get(c.path);
    if (more?.unindexed_reason) entry.unindexed_reason = more.unindexed_reason;
    if (more?.first_line) entry.first_line = more.first_line;
    return entry;
  });
  return {
    boundary: boundaries,
    filters: { keywords: options.keywords, max_candidates: options.maxCandidates, limit: options.limit },
    candidates,
    selected: null,
    searched: { files, relevant: ranked.length, truncated, skipped },
    warnings,
  };
}
