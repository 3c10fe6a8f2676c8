import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/**
 * Whether a path is inside a folder, decided once for every containment check (validate, context,
 * checkpoint, guard, resume, create --format kernel, the store index). The rule is
 * shared/kernel/checks.ts `checkRepoPath`'s: only a `..` segment leaves; `..foo` and `...` are
 * ordinary names (the reference's false positive, docs/conformance.md, is not copied).
 */

/**
 * `path` relative to `root` in repository form ("a/b", "" for the root itself), or undefined when
 * it is not inside `root`. Both are taken as given: resolve symlinks first (partialRealpath) to
 * judge where a path really leads.
 *
 * @example
 * ```ts
 * repoRelative("/r", "/r/..foo") // "..foo"
 * repoRelative("/r", "/r/a/../../b") // undefined
 * ```
 */
export function repoRelative(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (isAbsolute(rel)) return undefined;
  const segments = rel.split(sep);
  if (segments[0] === "..") return undefined;
  return segments.join("/");
}

/** realpath of the longest existing prefix, with the rest appended as written (Python's os.path.realpath). */
export function partialRealpath(path: string): string {
  const tail: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync(current), ...tail.reverse());
    } catch {
      if (dirname(current) === current) return path;
      tail.push(basename(current));
    }
  }
}
