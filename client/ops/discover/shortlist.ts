import { captureGitIdentity } from "../../lib/git.js";
import type { RunContext } from "../../lib/run-context.js";
import { managedRoots } from "../../lib/store.js";
import { type DiscoveryResult, discoverHandoffs } from "./discover.js";

/**
 * Discovery without a source: a shortlist of likely handoffs in `boundary` (else the managed
 * roots). It never selects one (`selected: null`). Shared by the command and the MCP server.
 */
export async function discoverShortlist(options: { boundary?: string | undefined; keywords: string[]; limit: number; maxCandidates: number }, ctx: RunContext): Promise<DiscoveryResult> {
  // Started first: the git processes run while this process enumerates the store.
  const current = captureGitIdentity(ctx.cwd, ctx.env).then((git) => ({
    cwd: ctx.cwd,
    ...(git?.repository ? { repository: git.repository } : {}),
    ...(git?.repo_root_sha ? { repo_root_sha: git.repo_root_sha } : {}),
    ...(git?.worktree_path ? { worktree_path: git.worktree_path } : {}),
    ...(git?.toplevel ? { toplevel: git.toplevel } : {}),
    ...(git?.branch ? { branch: git.branch } : {}),
  }));
  return discoverHandoffs({
    boundaries: options.boundary ? [{ path: options.boundary, managed: false }] : managedRoots(ctx.env).map((path) => ({ path, managed: true })),
    keywords: options.keywords.map((k) => k.trim()).filter((k) => k !== ""),
    maxCandidates: options.maxCandidates,
    limit: options.limit,
    current,
    now: ctx.now().getTime(),
  });
}
