import { rankingCheckout } from "../../lib/ranking-checkout.js";
import type { RunContext } from "../../lib/run-context.js";
import { managedRoots } from "../../lib/store.js";
import { type DiscoveryResult, discoverHandoffs } from "./discover.js";

/**
 * Discovery without a source: a shortlist of likely handoffs in `boundary` (else the managed
 * roots). It never selects one (`selected: null`). Shared by the command and the MCP server.
 */
export async function discoverShortlist(options: { boundary?: string | undefined; keywords: string[]; limit: number; maxCandidates: number }, ctx: RunContext): Promise<DiscoveryResult> {
  // Started first: the git processes run while this process enumerates the store.
  const current = rankingCheckout(ctx.cwd, ctx.env);
  return discoverHandoffs({
    boundaries: options.boundary ? [{ path: options.boundary, managed: false }] : managedRoots(ctx.env).map((path) => ({ path, managed: true })),
    keywords: options.keywords.map((k) => k.trim()).filter((k) => k !== ""),
    maxCandidates: options.maxCandidates,
    limit: options.limit,
    current,
    now: ctx.now().getTime(),
  });
}
