/** The namespace for handoffs captured outside git. */
export const GENERAL_NAMESPACE = "general";

/**
 * The managed store's repository namespace: `<sanitized-repo-name>-<first 12 hex of the root
 * commit>`, or `general` outside git (or before the first commit). Every linked worktree of a repo
 * shares it, because both parts come from the repository, never from the worktree.
 *
 * @example
 * ```ts
 * repositoryNamespace({ name: "My Repo", rootCommit: "1a2b3c4d5e6f7a8b9c0d..." }) // "my-repo-1a2b3c4d5e6f"
 * repositoryNamespace(undefined)                                             // "general"
 * ```
 */
export function repositoryNamespace(repo: { name: string; rootCommit: string | undefined } | undefined): string {
  if (!repo?.rootCommit || !/^[0-9a-f]{12,}$/i.test(repo.rootCommit)) return GENERAL_NAMESPACE;
  return `${sanitizeRepoName(repo.name)}-${repo.rootCommit.slice(0, 12).toLowerCase()}`;
}

/**
 * A repository name reduced to `[a-z0-9._-]`, never empty, never a dot name or a leading dash.
 *
 * @example
 * ```ts
 * sanitizeRepoName("..Évil/../name") // "evil-name"
 * ```
 */
export function sanitizeRepoName(name: string): string {
  const cleaned = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/[-.]{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  return cleaned === "" ? "repo" : cleaned;
}
