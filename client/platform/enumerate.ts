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
  /** How many candidates `forEach` visits: at most `maxCandidates`, the most recent when more were found. */
  count: number;
  /**
   * Visits each candidate once, in no set order. Below the bound, folder by folder straight from
   * their listings, each path made only as it is visited: enumerating 10,000 files keeps no object
   * per file, which was a sixth of discovery's work in a process that had just started (`mtimeMs`
   * is given only where the bound needed it).
   */
  forEach(visit: (path: string, fileName: string, mtimeMs: number | undefined) => void): void;
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
  // The folders that hold candidates, with their listings as read: the candidates are visited
  // from these, so none needs an object of its own. `upTo`: entries the walk looked at.
  const listed: { prefix: string; entries: Dirent[]; upTo: number }[] = [];
  let count = 0;
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
    const before = count;
    let upTo = 0;
    // An index loop, not for-of: unoptimised at first, an array iterator is a call per entry.
    for (; upTo < entries.length; upTo++) {
      const entry = entries[upTo]!;
      if (++visited > maxEntries) {
        truncated = true;
        break;
      }
      // A regular file first: nearly every entry is one, and one type check then settles it.
      if (entry.isFile()) {
        if (depth > maxDepth) note(prefix + entry.name, `more than ${maxDepth} folders below the boundary`);
        else if (isHandoffFileName(entry.name)) count++;
        else note(prefix + entry.name, `not a handoff file type (${[...HANDOFF_EXTENSIONS].join(", ")})`);
      } else if (entry.isSymbolicLink()) {
        skipped.symlinks++;
      } else if (entry.isDirectory()) {
        // Deeper folders are still walked (within maxEntries), so what they hold is counted.
        walk(prefix + entry.name, depth + 1);
      } else {
        skipped.special++;
      }
    }
    if (count > before) listed.push({ prefix, entries, upTo });
  };
  walk(root, 0);

  const visitListed = (visit: (path: string, fileName: string, mtimeMs: number | undefined) => void) => {
    for (const { prefix, entries, upTo } of listed) {
      for (let i = 0; i < upTo; i++) {
        const entry = entries[i]!;
        // The walk's own test, so exactly the entries it counted (a folder is listed only within
        // maxDepth, where that test is all it asked).
        if (entry.isFile() && isHandoffFileName(entry.name)) visit(prefix + entry.name, entry.name, undefined);
      }
    }
  };
  const result = { boundary: root, notIndexed, skipped, truncated };
  if (count <= options.maxCandidates) return { ...result, count, forEach: visitListed };
  const found: CandidateFile[] = [];
  visitListed((path, fileName) => found.push({ path, fileName }));
  const recent = mostRecent(found, options.maxCandidates, skipped, note);
  return {
    ...result,
    count: recent.length,
    forEach: (visit) => {
      for (const file of recent) visit(file.path, file.fileName, file.mtimeMs);
    },
  };
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

/** Whether a name has one of HANDOFF_EXTENSIONS; nearly all are `.md`, told without a backward search. */
function isHandoffFileName(name: string): boolean {
  return (name.length > 3 && name.endsWith(".md")) || HANDOFF_EXTENSIONS.has(extensionOf(name));
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
