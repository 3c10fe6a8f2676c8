import { type Dirent, lstatSync, readdirSync, realpathSync } from "node:fs";
import { extname, join, sep } from "node:path";

/** A file that may be a handoff, known only by its filesystem metadata: nothing has been read. */
export interface CandidateFile {
  path: string;
  fileName: string;
  mtimeMs: number;
  size: number;
}

export interface Enumeration {
  /** The resolved boundary (real path) that was searched. */
  boundary: string;
  /** Most recent first, at most `maxCandidates`. */
  candidates: CandidateFile[];
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
 * files count, and anything whose real path escapes the boundary is dropped. The result is
 * bounded: most recent first, cut at `maxCandidates`.
 */
export function enumerateCandidates(boundary: string, options: EnumerateOptions): Enumeration {
  const root = realpathSync(boundary);
  const maxEntries = options.maxEntries ?? 200_000;
  const maxDepth = options.maxDepth ?? 8;
  const skipped = { symlinks: 0, special: 0, escaped: 0, overBound: 0 };
  const found: CandidateFile[] = [];
  let visited = 0;
  let truncated = false;

  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folder: nothing in it can be a candidate
    }
    for (const entry of entries) {
      if (++visited > maxEntries) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        skipped.symlinks++;
      } else if (entry.isDirectory()) {
        if (depth < maxDepth) walk(path, depth + 1);
      } else if (!entry.isFile()) {
        skipped.special++;
      } else if (HANDOFF_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
        // lstat, not stat: the entry could have been swapped for a symlink since readdir.
        let stats;
        try {
          stats = lstatSync(path);
        } catch {
          continue;
        }
        if (!stats.isFile()) {
          if (stats.isSymbolicLink()) skipped.symlinks++;
          else skipped.special++;
          continue;
        }
        found.push({ path, fileName: entry.name, mtimeMs: stats.mtimeMs, size: stats.size });
      }
    }
  };
  walk(root, 0);

  found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  const kept: CandidateFile[] = [];
  for (const candidate of found) {
    if (kept.length >= options.maxCandidates) {
      skipped.overBound++;
      continue;
    }
    // Containment: the real path must stay inside the boundary (a parent swapped for a symlink
    // after the walk would show here).
    let real: string;
    try {
      real = realpathSync(candidate.path);
    } catch {
      continue;
    }
    if (real !== root && !real.startsWith(root + sep)) {
      skipped.escaped++;
      continue;
    }
    kept.push(candidate);
  }
  return { boundary: root, candidates: kept, skipped, truncated };
}
