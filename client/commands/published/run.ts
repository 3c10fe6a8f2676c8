import type { HandoffMeta } from "../../../shared/api/handoff.js";
import { implement } from "../command.js";
import { configDirFor } from "../../lib/config.js";
import { oneLine } from "../../platform/terminal.js";
import type { publishedSpec } from "./spec.js";
import { listPublished, publishedState } from "../../lib/published-store.js";
import { fetchMeta } from "../../lib/server-api.js";
import { teamTokenFor } from "../../lib/share-source.js";

interface Entry {
  id: string;
  url: string | null;
  title: string | null;
  local_path: string | null;
  scope: string;
  created_at: string;
  expires_at: string;
  max_views: number | null;
  state: "active" | "expired" | "revoked" | "exhausted" | "gone" | "unknown";
  views_left: number | null;
  /** Why the state is unknown; null otherwise. */
  state_reason: string | null;
}

export interface PublishedResult {
  published: Entry[];
  warnings: string[];
}

export const command = implement<typeof publishedSpec>()({
  async run({ flags, ctx }): Promise<PublishedResult> {
    const configDir = configDirFor({ env: ctx.env, home: ctx.home });
    const call = ctx.http();
    const { records, warnings } = await listPublished(configDir);
    // One config read per server (the run context keeps it), its warnings shown once by the front end.
    const teamTokenOf = (server: string) => teamTokenFor(server, ctx);
    const entries = await Promise.all(
      records.map(async (record): Promise<Entry> => {
        const local = publishedState(record, ctx.now());
        const entry: Entry = {
          id: record.id,
          url: record.url_without_key ?? null,
          title: record.title ?? null,
          local_path: record.local_path ?? null,
          scope: record.scope,
          created_at: record.created_at,
          expires_at: record.expires_at,
          max_views: record.max_views,
          state: local,
          views_left: null,
          state_reason: null,
        };
        if (local !== "active") return entry;
        if (flags.offline) {
          // Without the server, a limited link's views may be used up: say so, never "active".
          if (record.max_views === null) return entry;
          entry.state = "unknown";
          entry.state_reason = "--offline: the server was not asked (views may be used up)";
          return entry;
        }
        // A team link's metadata answers only to a token of its team, which the owner holds.
        const teamToken = record.scope === "team" ? await teamTokenOf(record.server) : undefined;
        // Without a token bound to its server the link is still asked about, anonymously: the
        // server may answer (expired, gone); a refusal is then explained as the missing token.
        try {
          const meta: HandoffMeta = await fetchMeta(record.server, record.id, teamToken, call);
          entry.views_left = meta.views_left;
          if (meta.views_left === 0) entry.state = "exhausted";
        } catch (error) {
          const reason = (error as { reason?: string }).reason;
          entry.state = reason === "expired" || reason === "revoked" || reason === "exhausted" ? reason : reason === "not_found" ? "gone" : "unknown";
          if (entry.state === "unknown") {
            entry.state_reason =
              record.scope === "team" && teamToken === undefined
                ? `a team link's state needs a team token bound to ${record.server}: set HANDOFF_TEAM_TOKEN with HANDOFF_SERVER=${record.server}, or a team_token for it in the config file`
                : error instanceof Error
                  ? error.message
                  : String(error);
          }
        }
        return entry;
      }),
    );
    return { published: entries, warnings };
  },
  human(result) {
    const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
    if (result.published.length === 0) return { err: [...warnings, "Nothing published from this machine yet ('handoff publish FILE' or 'handoff create --publish')."].join("\n") };
    const lines: string[] = [];
    for (const e of result.published) {
      const views = e.max_views === null ? "unlimited views" : e.views_left === null ? `${e.max_views} views` : `${e.views_left} of ${e.max_views} views left`;
      // Titles come from the handoff's author, urls from the server: escaped, never raw.
      lines.push(oneLine(`${e.state.padEnd(9)} ${e.id}  ${e.title ?? e.local_path ?? ""}`));
      lines.push(oneLine(`          ${e.url ?? "(no url)"}  ${e.scope}, ${views}, expires ${e.expires_at}`));
      if (e.state_reason) lines.push(`          (${oneLine(e.state_reason)})`);
    }
    return { out: lines.join("\n"), ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}) };
  },
  outcome: () => "ok",
  // The documented shape: {published}; warnings about bad records go to stderr.
  json: (result) => ({ published: result.published }),
});
