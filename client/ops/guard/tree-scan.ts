import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fnmatchcase } from "./fnmatch.js";

/**
 * The guard's read-only, bounded look at the file tree: what a shell glob matches, and a walk
 * under a folder a recursive command reads. Past MAX_ENTRIES directory entries the answer is
 * "too many" (undefined), and the caller falls back to judging by the names alone (stricter).
 */

/** Directory entries one decision may read (about 10 ms of readdir on a warm cache). */
export const MAX_ENTRIES = 20_000;

/**
 * The paths an absolute shell glob matches, as bash would list them (no dotfiles unless the
 * pattern segment starts with `.`, or `dot` is set; `**` also taken as globstar's any depth: a
 * superset), or undefined past the budget. An empty list: bash then passes the word on as written.
 */
export function expandGlob(pattern: string, budget = { left: MAX_ENTRIES }, options: { dot?: boolean } = {}): string[] | undefined {
  let current = ["/"];
  for (const segment of pattern.split("/").filter(Boolean)) {
    const next: string[] = [];
    for (const dir of current) {
      if (!/[*?[]/.test(segment)) {
        next.push(join(dir, segment));
        continue;
      }
      if (segment === "**") {
        next.push(dir);
        const over = walk(dir, budget, (path, entry) => {
          if (entry.isDirectory()) next.push(path);
          return undefined;
        });
        if (over) return undefined;
        continue;
      }
      const entries = list(dir, budget);
      if (entries === undefined) return undefined;
      for (const entry of entries) {
        if (entry.name.startsWith(".") && !options.dot && !segment.startsWith(".") && !segment.startsWith("[.]")) continue;
        if (fnmatchcase(entry.name, segment)) next.push(join(dir, entry.name));
      }
    }
    current = [...new Set(next)];
    if (current.length === 0) return [];
  }
  return current.filter((path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined).sort();
}

/**
 * Visits every entry under `dir` (not following symlinks, skipping `.git`); `visit` returns
 * "stop" to end the walk or "skip" not to enter a folder. True when the budget ran out.
 */
export function walk(dir: string, budget: { left: number }, visit: (path: string, entry: Dirent) => "stop" | "skip" | undefined): boolean {
  const stack = [dir];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    const entries = list(folder, budget);
    if (entries === undefined) return true;
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const path = join(folder, entry.name);
      const verdict = visit(path, entry);
      if (verdict === "stop") return false;
      if (entry.isDirectory() && verdict !== "skip") stack.push(path);
    }
  }
  return false;
}

/** A folder's entries, charged to the budget; [] for what is not a readable folder; undefined past the budget. */
function list(dir: string, budget: { left: number }): Dirent[] | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  budget.left -= entries.length;
  return budget.left < 0 ? undefined : entries;
}
