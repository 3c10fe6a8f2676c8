import { type Dirent, lstatSync, readdirSync, realpathSync } from "node:fs";
import { sep } from "node:path";

/** A file that may be a handoff, known only by its filesystem metadata: nothing has been read. */
export interface CandidateFile {
  path: string;
  fileName: string;
  /** Set when the bound needed the modification time to order candidates; else read at open. */
  mtimeMs?: number;
}

/** A regular file in the boundary that discovery does not index, and why. */
export interface NotIndexedFile {
  path: string;
  reason: string;
}

/** How many not-indexed files are named one by one; the count covers them all. */
export const NOT_INDEXED_LISTED = 100;

export interface Enumeration {
  /** The resolved boundary (real path) that was searched. */
  boundary: string;
  /** Most recent first, at most `maxCandidates`. */
  candidates: CandidateFile[];
  /** Every regular file that is not a candidate: counted, and the first NOT_INDEXED_LISTED named. */
  notIndexed: { count: number; files: NotIndexedFile[] };
  /** Files that matched but fell outside the bound, and entries skipped for safety. */
  skipped: { symlinks: number; special: number; escaped: number; overBound: number };
  /** True when the walk stopped at `maxEntries` before seeing everything. */
  truncated: boolean;
}

export interface EnumerateOptions {
  maxCandidates: number;
  /** Directory entries visited at most: a huge folder cannot make discovery unbounded. */
  maxEntries?: number;
  /** Folder depth below the boundary. */
  maxDepth?: number;
}

/** File kinds a handoff can be: Markdown, text, and JSON manifests. */
const HANDOFF_EXTENSIONS = new Set([".md", ".markdown", ".txt", ".json"]);

/**
 * Lists candidate files below `boundary` without opening any of them. Symlinks are never
 * followed or listed (a symlink candidate is excluded before anything reads it), only regular
 * files count, and a folder whose real path escapes the boundary is not entered. The result is
 * bounded: when more than `maxCandidates` files are found, the most recent are kept (lstat
 * orders them); otherwise every file is kept without a stat, since the reader's fstat on the
 * opened descriptor gives the same modification time for free.
 */
export function enumerateCandidates(boundary: string, options: EnumerateOptions): Enumeration {
  const root = realpathSync(boundary);
  const maxEntries = options.maxEntries ?? 200_000;
  const maxDepth = options.maxDepth ?? 8;
  const skipped = { symlinks: 0, special: 0, escaped: 0, overBound: 0 };
  const found: CandidateFile[] = [];
  const notIndexed = { count: 0, files: [] as NotIndexedFile[] };
  const note = (path: string, reason: string) => {
    if (notIndexed.count++ < NOT_INDEXED_LISTED) notIndexed.files.push({ path, reason });
  };
  let visited = 0;
  let truncated = false;

  // Folders far below maxDepth are still listed (to count what they hold), never deeper than this.
  const walk = (dir: string, depth: number): void => {
    if (depth > maxDepth + 24) {
      truncated = true;
      return;
    }
    // Containment per folder, not per file: the walk never follows a symlink, so only a folder
    // swapped for one since its parent was listed could lead outside, and the reader opens
    // files with O_NOFOLLOW.
    if (depth > 0 && !within(dir, root)) {
      skipped.escaped++;
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folder: nothing in it can be a candidate
    }
    // An entry's name has no separator and `dir` is already normal: plain concatenation gives
    // what join would, without normalising ten thousand paths.
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    for (const entry of entries) {
      if (++visited > maxEntries) {
        truncated = true;
        return;
      }
      if (entry.isSymbolicLink()) {
        skipped.symlinks++;
      } else if (entry.isDirectory()) {
        // Deeper folders are still walked (within maxEntries), so what they hold is counted.
        walk(prefix + entry.name, depth + 1);
      } else if (!entry.isFile()) {
        skipped.special++;
      } else if (depth > maxDepth) {
        note(prefix + entry.name, `more than ${maxDepth} folders below the boundary`);
      } else if (HANDOFF_EXTENSIONS.has(extensionOf(entry.name))) {
        found.push({ path: prefix + entry.name, fileName: entry.name });
      } else {
        note(prefix + entry.name, `not a handoff file type (${[...HANDOFF_EXTENSIONS].join(", ")})`);
      }
    }
  };
  walk(root, 0);

  if (found.length <= options.maxCandidates) return { boundary: root, candidates: found, notIndexed, skipped, truncated };
  return { boundary: root, candidates: mostRecent(found, options.maxCandidates, skipped, note), notIndexed, skipped, truncated };
}

/** The `max` most recent candidates (lstat dates them); the others are counted and noted. */
function mostRecent(found: CandidateFile[], max: number, skipped: Enumeration["skipped"], note: (path: string, reason: string) => void): CandidateFile[] {
  const dated: (CandidateFile & { mtimeMs: number })[] = [];
  for (const candidate of found) {
    // lstat, not stat: the entry could have been swapped for a symlink since readdir.
    const stats = lstatSync(candidate.path, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (!stats.isFile()) {
      if (stats.isSymbolicLink()) skipped.symlinks++;
      else skipped.special++;
      continue;
    }
    dated.push({ ...candidate, mtimeMs: stats.mtimeMs });
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  skipped.overBound += Math.max(0, dated.length - max);
  for (const over of dated.slice(max)) note(over.path, `over the candidate bound: only the ${max} most recent files are read (--max-candidates)`);
  return dated.slice(0, max);
}

/** What path.extname gives, lower-cased: a leading dot (".md") names a hidden file, not a type. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

function within(dir: string, root: string): boolean {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return false;
  }
  return real === root || real.startsWith(root + sep);
}
