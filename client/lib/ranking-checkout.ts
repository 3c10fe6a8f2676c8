import type { RankQuery } from "../../shared/discover/rank.js";
import { type GitIdentity, gitIdentityOnDemand } from "./git.js";
import type { Env } from "../platform/env.js";

/**
 * The checkout discovery ranks against (`RankQuery.current`): the folder and, inside a git
 * repository, its identity and branch. Read-only git, started at once so it runs while the
 * caller enumerates or lists.
 */
export async function rankingCheckout(cwd: string, env: Env): Promise<RankQuery["current"]> {
  return checkoutFor(cwd, await gitIdentityOnDemand(cwd, env).identity());
}

/** The ranking's view of a checkout: the folder and what git said of it (nothing outside a repository). */
export function checkoutFor(cwd: string, git: GitIdentity | undefined): RankQuery["current"] {
  return {
    cwd,
    ...(git?.repository ? { repository: git.repository } : {}),
    ...(git?.repo_root_sha ? { repo_root_sha: git.repo_root_sha } : {}),
    ...(git?.worktree_path ? { worktree_path: git.worktree_path } : {}),
    ...(git?.toplevel ? { toplevel: git.toplevel } : {}),
    ...(git?.branch ? { branch: git.branch } : {}),
  };
}
