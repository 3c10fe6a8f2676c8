import type { TeamHandoff } from "../../../shared/api/handoff.js";
import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { resolvePublishConfig } from "../../lib/config.js";
import { fetchTeamListing } from "../../lib/server-api.js";
import { oneLine } from "../../platform/terminal.js";
import type { teamSpec } from "./spec.js";

export interface TeamResult {
  server: string;
  team: string;
  /** Full links without their #key (keys never reach the server). */
  handoffs: (TeamHandoff & { link: string })[];
  warnings: string[];
}

export const command = implement<typeof teamSpec>()({
  async run({ flags, ctx }): Promise<TeamResult> {
    const config = await resolvePublishConfig({ flags: { server: flags.server }, env: ctx.env, home: ctx.home });
    if (!config.server) {
      throw new HandoffError("not_configured", "no publishing server is configured", { hint: `pass --server URL, set HANDOFF_SERVER, or put "server" in ${config.configPath}` });
    }
    if (!config.teamToken) {
      throw new HandoffError("not_configured", `listing your team's links needs a team token for ${config.server}`, {
        hint: `set HANDOFF_TEAM_TOKEN with HANDOFF_SERVER=${config.server}, or a "team_token" for ${config.server} in ${config.configPath} (ask your operator: npm run team)`,
      });
    }
    const server = config.server;
    const listing = await ctx.progress(`listing ${server} (waiting for the server)...`, fetchTeamListing(server, { value: config.teamToken, server }, ctx.http()));
    return { server, team: listing.team, handoffs: listing.handoffs.map((h) => ({ ...h, link: `${server}${h.url}` })), warnings: config.warnings };
  },
  human(result) {
    const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
    if (result.handoffs.length === 0) return { err: [...warnings, `No live links for team ${result.team} on ${result.server}.`].join("\n") };
    const lines = result.handoffs.map((h) => `${h.created_at}  ${h.link}  ${h.max_views === null ? "unlimited views" : `max ${h.max_views} views`}, expires ${h.expires_at}, ${h.size} bytes`);
    return {
      out: lines.join("\n"),
      err: [...warnings, `Team ${result.team}: ${result.handoffs.length} live link${result.handoffs.length === 1 ? "" : "s"} (without keys: ask the sender for the full link).`].join("\n"),
    };
  },
  outcome: () => "ok",
});
