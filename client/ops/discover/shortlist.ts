import { readdirSync } from "node:fs";
import { gitIdentityOnDemand } from "../../lib/git.js";
import { checkoutFor } from "../../lib/ranking-checkout.js";
import type { RunContext } from "../../lib/run-context.js";
import { managedRoots } from "../../lib/store.js";
import { type DiscoveryResult, discoverHandoffs, kernelFoldersMayExist } from "./discover.js";

/**
 * Discovery without a source: a shortlist of likely handoffs in `boundary` (else the managed
 * roots). It never selects one (`selected: null`). Shared by the command and the MCP server.
 */
export async function discoverShortlist(options: { boundary?: string | undefined; keywords: string[]; limit: number; maxCandidates: number }, ctx: RunContext): Promise<DiscoveryResult> {
  const boundaries = options.boundary ? [{ path: options.boundary, managed: false }] : managedRoots(ctx.env).map((path) => ({ path, managed: true }));
  const git = gitIdentityOnDemand(ctx.cwd, ctx.env);
  // A store with something in it will be ranked: git starts now and runs while this process
  // enumerates it. An empty one asks git only for the toplevel, and only when kernel folders may exist.
  if (boundaries.some(({ path }) => hasEntries(path))) git.start();
  const full = async () => checkoutFor(ctx.cwd, await git.identity());
  return discoverHandoffs({
    boundaries,
    keywords: options.keywords.map((k) => k.trim()).filter((k) => k !== ""),
    maxCandidates: options.maxCandidates,
    limit: options.limit,
    // The toplevel only tells where kernel folders are; without any above cwd, git is not asked.
    current: { toplevel: async () => (kernelFoldersMayExist(ctx.cwd, ctx.env) ? git.toplevel() : undefined), full },
    now: ctx.now().getTime(),
  });
}

/** Whether a folder lists anything (a missing or unreadable one does not). */
function hasEntries(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}
