/**
 * Drops the file sections of a unified git diff whose paths match a forbidden glob, so a
 * `git_diff` selector cannot carry content the manifest forbids. The client should also pass
 * exclude pathspecs to git; this is the core's own guarantee on what it emits.
 *
 * @example
 * ```ts
 * withoutForbiddenFiles("diff --git a/a.ts b/a.ts\n+x\ndiff --git a/.env b/.env\n+SECRET", ["*.env", ".env"], matchGlob)
 * // { diff: "diff --git a/a.ts b/a.ts\n+x", removed: [".env"] }
 * ```
 */
export function withoutForbiddenFiles(diff: string, forbidden: string[], matchGlob: (pattern: string, path: string) => boolean): { diff: string; removed: string[] } {
  if (forbidden.length === 0) return { diff, removed: [] };
  const kept: string[] = [];
  const removed: string[] = [];
  let skipping = false;
  for (const line of diff.split("\n")) {
    const header = /^diff --git (?:"?a\/(.*?)"?) (?:"?b\/(.*?)"?)$/.exec(line);
    if (header) {
      const paths = [header[1], header[2]].filter((p): p is string => p !== undefined);
      skipping = paths.some((path) => forbidden.some((glob) => matchGlob(glob, path)));
      if (skipping) removed.push(header[2] ?? header[1] ?? "");
    }
    if (!skipping) kept.push(line);
  }
  return { diff: kept.join("\n"), removed };
}
