import { lstatSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { locateFrontmatter } from "../../../shared/ce/frontmatter-scan.js";
import { indexFlatFrontmatter, indexWrittenShape, indexWrittenText, writtenTextIndexer } from "../../../shared/discover/index-flat.js";
import { kernelIndex } from "../../../shared/discover/kernel-index.js";
import { type CandidateFrontmatter, type CandidateMeta, type RankQuery, type RankedCandidate, candidateFrontmatter, createRanker, relevant } from "../../../shared/discover/rank.js";
import type { HandoffError } from "../../../shared/errors.js";
import { STORE_FOLDER, inspectManagedRoot } from "../../lib/store.js";
import { readRegularFile } from "../../platform/read-file.js";
import { type Enumeration, NOT_INDEXED_LISTED, type NotIndexedFile, enumerateCandidates } from "../../platform/enumerate.js";
import type { Env } from "../../platform/env.js";
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
  /**
   * The checkout ranking compares against: a value, a promise (git runs while the store is
   * enumerated), or asked on demand (a store with nothing to rank needs at most its toplevel).
   */
  current: RankQuery["current"] | Promise<RankQuery["current"]> | CheckoutOnDemand;
  now: number;
}

/** The current checkout, asked of git only as far as discovery needs it. */
export interface CheckoutOnDemand {
  /** Where the repository's kernel folders are (undefined outside a repository). */
  toplevel(): Promise<string | undefined>;
  /** Everything ranking compares against. */
  full(): Promise<RankQuery["current"]>;
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
  searched: {
    files: number;
    relevant: number;
    truncated: boolean;
    skipped: { symlinks: number; special: number; escaped: number; overBound: number };
    /** Every regular file in the boundaries that was not indexed: counted, the first ones named with why. */
    not_indexed: { count: number; files: NotIndexedFile[] };
  };
  /** Roots that were refused (unsafe) and why; discovery goes on with the others. */
  warnings: string[];
}

/**
 * The whole discovery in one pass: enumerate (nothing read yet), then read each candidate's head
 * within bounds, score it, and keep only the shortlist. Nothing but the shortlist is retained, so
 * a store of 10,000 handoffs costs no more memory than one of 10.
 */
export async function discoverHandoffs(options: DiscoverOptions): Promise<DiscoveryResult> {
  const warnings: string[] = [];
  const { boundaries, enumerations, fileCount, skipped, notIndexed, truncated } = enumerateBoundaries(options, warnings);
  const onDemand = isOnDemand(options.current) ? options.current : undefined;
  const full = onDemand ? () => onDemand.full() : async () => options.current as RankQuery["current"];
  // Kernel manifests and checkpoints of the current repository, where kernel's `latest` looks:
  // listed from the toplevel alone, so an empty store with none asks git no more than that.
  const managed = options.boundaries.every((b) => b.managed);
  let current = fileCount > 0 ? await full() : undefined;
  const toplevel = managed ? (current ? current.toplevel : onDemand ? await onDemand.toplevel() : (await full()).toplevel) : undefined;
  const kernels = toplevel ? kernelFiles(toplevel) : [];
  if (fileCount === 0 && kernels.length === 0) return emptyResult(options, { boundaries, skipped, notIndexed, truncated, warnings });
  current ??= await full();
  let kernelCount = 0;
  const ranker = createRanker({ keywords: options.keywords, now: options.now, current, mtimeOf });
  const shortlist = new Shortlist(options.limit, ranker.compare);
  for (const kernel of indexKernelFiles(kernels, current)) {
    boundaries.push(kernel.dir);
    const meta: CandidateMeta = { path: kernel.path, indexed: kernel.frontmatter !== undefined, mtimeMs: kernel.mtimeMs, fileName: kernel.fileName };
    if (kernel.frontmatter) meta.frontmatter = kernel.frontmatter;
    shortlist.offer(ranker.score(meta), meta, kernel.reason === undefined ? undefined : { unindexed_reason: kernel.reason });
    kernelCount++;
  }
  const needsYaml: { meta: CandidateMeta; text: string }[] = [];
  const recognise = ranker.readsKeywords ? indexWrittenText : WITHOUT_KEYWORDS;
  // Straight from each enumeration: a candidate's path exists only while it is read and scored,
  // unless the shortlist keeps it (the order of visits cannot change a total order's best).
  for (const enumeration of enumerations) {
    enumeration.forEach((path, fileName, mtimeMs) => {
      const read = indexCandidate(path, fileName, mtimeMs, recognise);
      if (read === undefined) skipped.special++;
      else if (read.yaml !== undefined) needsYaml.push({ meta: read.meta, text: read.yaml });
      else shortlist.offer(ranker.score(read.meta), read.meta, read.extra);
    });
  }
  // Frontmatter other tools wrote in general YAML: the YAML library loads only when one needs it.
  if (needsYaml.length > 0) {
    const { parseYamlMapping } = await import("../../../shared/ce/yaml-fallback.js");
    for (const { meta, text } of needsYaml) {
      const parsed = parseYamlMapping(text);
      if (parsed.ok) {
        meta.indexed = true;
        meta.frontmatter = candidateFrontmatter(parsed.value);
      }
      shortlist.offer(ranker.score(meta), meta, parsed.ok ? undefined : { unindexed_reason: parsed.reason });
    }
  }

  const candidates = shortlist.entries().map(({ meta, extra }): ShortlistEntry => {
    // Reasons are put into words only for what is shown (the same score, so the order holds).
    const c = ranker.explain(meta);
    const entry: ShortlistEntry = {
      path: c.path,
      indexed: c.indexed,
      title: c.frontmatter?.title ?? null,
      created_at: c.frontmatter?.created_at ?? null,
      summary: c.frontmatter?.summary ?? null,
      score: Math.round(c.score * 1000) / 1000,
      reasons: c.reasons,
    };
    if (extra?.unindexed_reason) entry.unindexed_reason = extra.unindexed_reason;
    if (extra?.first_line) entry.first_line = extra.first_line;
    return entry;
  });
  return {
    boundary: boundaries,
    filters: { keywords: options.keywords, max_candidates: options.maxCandidates, limit: options.limit },
    candidates,
    selected: null,
    searched: { files: fileCount + kernelCount, relevant: shortlist.relevant, truncated, skipped, not_indexed: notIndexed },
    warnings,
  };
}

function isOnDemand(current: DiscoverOptions["current"]): current is CheckoutOnDemand {
  return typeof (current as Partial<CheckoutOnDemand>).full === "function";
}

/** The result when nothing was found to rank (what an empty store answers). */
function emptyResult(options: DiscoverOptions, found: Pick<ReturnType<typeof enumerateBoundaries>, "boundaries" | "skipped" | "notIndexed" | "truncated"> & { warnings: string[] }): DiscoveryResult {
  return {
    boundary: found.boundaries,
    filters: { keywords: options.keywords, max_candidates: options.maxCandidates, limit: options.limit },
    candidates: [],
    selected: null,
    searched: { files: 0, relevant: 0, truncated: found.truncated, skipped: found.skipped, not_indexed: found.notIndexed },
    warnings: found.warnings,
  };
}

/** Every boundary's enumeration (candidates visited later, once ranking can start), with what each skipped or left unindexed. */
function enumerateBoundaries(options: DiscoverOptions, warnings: string[]) {
  const boundaries: string[] = [];
  const skipped = { symlinks: 0, special: 0, escaped: 0, overBound: 0 };
  const enumerations: Enumeration[] = [];
  let fileCount = 0;
  const notIndexed = { count: 0, files: [] as NotIndexedFile[] };
  let truncated = false;
  for (const dir of safeBoundaries(options.boundaries, warnings)) {
    let enumeration;
    try {
      enumeration = enumerateCandidates(dir, { maxCandidates: options.maxCandidates });
    } catch {
      continue; // no ce-handoff folder yet: nothing to find there
    }
    boundaries.push(enumeration.boundary);
    truncated ||= enumeration.truncated;
    for (const key of Object.keys(skipped) as (keyof typeof skipped)[]) skipped[key] += enumeration.skipped[key];
    enumerations.push(enumeration);
    fileCount += enumeration.count;
    notIndexed.count += enumeration.notIndexed.count;
    notIndexed.files.push(...enumeration.notIndexed.files.slice(0, NOT_INDEXED_LISTED - notIndexed.files.length));
  }
  return { boundaries, enumerations, fileCount, skipped, notIndexed, truncated };
}

/**
 * One candidate's index from its head, read within the contract's bounds: undefined when the
 * file is no longer a regular file; `yaml` when its frontmatter needs the general YAML parser.
 */
function indexCandidate(
  path: string,
  fileName: string,
  mtimeMs: number | undefined,
  recognise: (text: string) => CandidateFrontmatter | undefined,
): { meta: CandidateMeta; extra?: Extra; yaml?: string } | undefined {
  // Most heads are exactly what `handoff create` writes: one search finds their end, one match
  // indexes them (the written shape is a proof readCandidateHead may take: see there).
  const head = readCandidateHead(path, recognise);
  if (head.kind === "skipped") return undefined;
  const meta: CandidateMeta = { path, indexed: false, mtimeMs: mtimeMs ?? Number.NaN, fileName };
  if (head.kind === "recognised") {
    meta.indexed = true;
    meta.frontmatter = head.value;
    return { meta };
  }
  if (head.kind === "first-line") return { meta, extra: { unindexed_reason: "no frontmatter", first_line: head.firstLine } };
  const written = indexWrittenShape(head.bytes);
  if (written !== undefined) {
    meta.indexed = true;
    meta.frontmatter = written;
    return { meta };
  }
  const block = locateFrontmatter(head.bytes);
  if (block.kind === "unindexed") return { meta, extra: { unindexed_reason: block.reason } };
  const frontmatter = indexFlatFrontmatter(block.text);
  if (frontmatter === undefined) return { meta, yaml: block.text };
  meta.indexed = true;
  meta.frontmatter = frontmatter;
  return { meta };
}

/** The written shape's index for a ranking that never reads a candidate's keywords (`readsKeywords`). */
const WITHOUT_KEYWORDS = writtenTextIndexer({ keywords: false });

/** A candidate's modification time, which ranking asks for only when its frontmatter gives no creation time. */
function mtimeOf(meta: CandidateMeta): number {
  return lstatSync(meta.path, { throwIfNoEntry: false })?.mtimeMs ?? Number.NaN;
}

/** Where kernel's `latest` looks: `_meta/checkpoints` and `_meta/handoffs` of the repository. */
export const KERNEL_DIRS = ["_meta/checkpoints", "_meta/handoffs"] as const;
/**
 * Whether a repository at `cwd` could have kernel folders: one of `cwd` and its ancestors holds
 * `_meta/checkpoints` or `_meta/handoffs` (the toplevel of a checkout `cwd` is in is one of them).
 * When none does, discovery of an empty store needs no git at all. GIT_DIR or GIT_WORK_TREE can
 * put the toplevel elsewhere: then only git can say.
 */
export function kernelFoldersMayExist(cwd: string, env: Env): boolean {
  if (env.GIT_DIR !== undefined || env.GIT_WORK_TREE !== undefined) return true;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (KERNEL_DIRS.some((rel) => lstatSync(join(dir, rel), { throwIfNoEntry: false })?.isDirectory())) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** A manifest is small; a larger .json there is not one. */
const KERNEL_FILE_LIMIT = 1024 * 1024;

interface KernelCandidate {
  dir: string;
  path: string;
  fileName: string;
  mtimeMs: number;
  frontmatter?: CandidateFrontmatter;
  reason?: string;
}

/** The .json files (not dot-files, regular files only, no symlinks) of the repository's kernel folders. */
function kernelFiles(toplevel: string): Omit<KernelCandidate, "frontmatter" | "reason">[] {
  const out: Omit<KernelCandidate, "frontmatter" | "reason">[] = [];
  for (const rel of KERNEL_DIRS) {
    const dir = join(toplevel, rel);
    let names: string[];
    try {
      if (!lstatSync(dir).isDirectory()) continue;
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const fileName of names.sort()) {
      if (!fileName.endsWith(".json") || fileName.startsWith(".")) continue;
      const path = join(dir, fileName);
      const stats = lstatSync(path, { throwIfNoEntry: false });
      if (!stats?.isFile()) continue;
      out.push({ dir, path, fileName, mtimeMs: stats.mtimeMs });
    }
  }
  return out;
}

/** Each kernel file indexed from its JSON, against the current checkout. */
function indexKernelFiles(files: Omit<KernelCandidate, "frontmatter" | "reason">[], current: RankQuery["current"]): KernelCandidate[] {
  return files.map((file) => {
    const candidate: KernelCandidate = { ...file };
    try {
      const bytes = readRegularFile(file.path, KERNEL_FILE_LIMIT, { what: "a kernel manifest", noFollow: true });
      const index =
        bytes === "too_large"
          ? { ok: false as const, reason: "larger than 1 MiB" }
          : kernelIndex(new TextDecoder().decode(bytes), {
              ...(current.repository ? { repository: current.repository } : {}),
              ...(current.repo_root_sha ? { repo_root_sha: current.repo_root_sha } : {}),
              cwd: current.toplevel!,
            });
      if (index.ok) candidate.frontmatter = index.frontmatter;
      else candidate.reason = index.reason;
    } catch {
      candidate.reason = "unreadable";
    }
    return candidate;
  });
}

interface Extra {
  unindexed_reason?: string;
  first_line?: string;
}

/** The best `limit` relevant candidates seen so far, best first; counts every relevant one. */
class Shortlist {
  relevant = 0;
  private readonly kept: { ranked: RankedCandidate; meta: CandidateMeta; extra: Extra | undefined }[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: RankedCandidate, b: RankedCandidate) => number,
  ) {}

  offer(ranked: RankedCandidate, meta: CandidateMeta, extra: Extra | undefined): void {
    if (!relevant(ranked)) return;
    this.relevant++;
    const { kept } = this;
    if (kept.length === this.limit && this.compare(ranked, kept[kept.length - 1]!.ranked) >= 0) return;
    let at = kept.length;
    while (at > 0 && this.compare(ranked, kept[at - 1]!.ranked) < 0) at--;
    kept.splice(at, 0, { ranked, meta, extra });
    if (kept.length > this.limit) kept.pop();
  }

  entries() {
    return this.kept;
  }
}

/** The folders to enumerate: a user's folder as given; a managed root only after its safety checks. */
function safeBoundaries(boundaries: DiscoverOptions["boundaries"], warnings: string[]): string[] {
  const dirs: string[] = [];
  for (const boundary of boundaries) {
    if (!boundary.managed) {
      dirs.push(boundary.path);
      continue;
    }
    const state = inspectManagedRoot(boundary.path);
    if (state === "missing") continue;
    if (state !== "ok") {
      warnings.push(`skipped the managed root: ${(state as HandoffError).message}`);
      continue;
    }
    // The ce-handoff folder gets the same check: a symlink there would lead discovery elsewhere.
    const dir = join(boundary.path, STORE_FOLDER);
    const store = inspectManagedRoot(dir);
    if (store === "missing") continue;
    if (store !== "ok") {
      warnings.push(`skipped the managed store: ${(store as HandoffError).message}`);
      continue;
    }
    dirs.push(dir);
  }
  return dirs;
}
