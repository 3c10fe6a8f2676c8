/**
 * Comparing how two places identify a repository and a commit: the frontmatter a handoff
 * recorded against the checkout a session runs in.
 */

/**
 * Whether two commit ids name the same commit; an abbreviated id (7+ hex) matches the full one.
 *
 * @example
 * ```ts
 * sameCommit("1a2b3c4d5e6f", "1A2B3C4") // true
 * ```
 */
export function sameCommit(a: string, b: string): boolean {
  const x = a.trim().toLowerCase();
  const y = b.trim().toLowerCase();
  return x === y || (Math.min(x.length, y.length) >= 7 && (x.startsWith(y) || y.startsWith(x)));
}

/**
 * A repository identifier without scheme, user part, trailing slash or `.git`, lower-cased, so a
 * remote URL and its host/path spelling compare equal.
 *
 * @example
 * ```ts
 * normaliseRepository("https://git.example/Org/App.git") // "git.example/org/app"
 * ```
 */
export function normaliseRepository(repository: string): string {
  return repository
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/^[^@/]*@/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
}
