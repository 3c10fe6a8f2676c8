import { homedir } from "node:os";
import type { HandoffMeta } from "../../shared/api/handoff.js";
import { EXIT } from "../../shared/errors.js";
import { parseCommandArgs } from "../args.js";
import { type BoundToken, configDirFor } from "../config.js";
import type { Io } from "../io.js";
import { listPublished, publishedState } from "../published-store.js";
import { callOptionsFor, fetchMeta } from "../publish/server-api.js";
import { teamTokenFor } from "../resume/share-source.js";
import { safeLineForTerminal, stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff published [--json] [--offline]

List the handoffs you published from this machine, newest first, with their state: active
(views left, from the server), expired, revoked, or unknown when the server cannot be asked.
Share keys are never stored, so the list shows links without their #key.
`;

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
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs("published", args, { offline: { type: "boolean" } });
  const configDir = configDirFor({ env: io.env, home: io.env.HOME ?? homedir() });
  const call = callOptionsFor(io.env);
  const { records, warnings } = await listPublished(configDir);
  // One config read per server, its warnings shown once (and always: a token file others could read).
  const shown = new Set<string>();
  const onceIo: Io = { ...io, err: (text) => void (shown.has(text) || (shown.add(text), io.err(text))) };
  const tokens = new Map<string, Promise<BoundToken | undefined>>();
  const teamToken = (server: string) => tokens.get(server) ?? tokens.set(server, teamTokenFor(server, onceIo)).get(server)!;
  for (const warning of warnings) io.err(`warning: ${safeLineForTerminal(warning)}`);
  const entries = await Promise.all(
    records.map(async (record): Promise<Entry> => {
      const local = publishedState(record);
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
      };
      if (local !== "active" || values.offline) return entry;
      try {
        // A team link's metadata answers only to a token of its team, which the owner holds.
        const token = record.scope === "team" ? await teamToken(record.server) : undefined;
        const meta: HandoffMeta = await fetchMeta(record.server, record.id, token, call);
        entry.views_left = meta.views_left;
        if (meta.views_left === 0) entry.state = "exhausted";
      } catch (error) {
        const reason = (error as { reason?: string }).reason;
        entry.state = reason === "expired" || reason === "revoked" || reason === "exhausted" ? reason : reason === "not_found" ? "gone" : "unknown";
      }
      return entry;
    }),
  );
  if (values.json) {
    io.out(stringifyForTerminal({ published: entries }));
    return EXIT.ok;
  }
  if (entries.length === 0) {
    io.err("Nothing published from this machine yet ('handoff publish FILE' or 'handoff create --publish').");
    return EXIT.ok;
  }
  for (const e of entries) {
    const views = e.max_views === null ? "unlimited views" : e.views_left === null ? `${e.max_views} views` : `${e.views_left} of ${e.max_views} views left`;
    // Titles come from the handoff's author, urls from the server: escaped, never raw.
    io.out(safeLineForTerminal(`${e.state.padEnd(9)} ${e.id}  ${e.title ?? e.local_path ?? ""}`));
    io.out(safeLineForTerminal(`          ${e.url ?? "(no url)"}  ${e.scope}, ${views}, expires ${e.expires_at}`));
  }
  return EXIT.ok;
}
