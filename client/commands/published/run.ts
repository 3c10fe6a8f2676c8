import { implement } from "../command.js";
import { configDirFor } from "../../lib/config.js";
import { oneLine } from "../../platform/terminal.js";
import type { publishedSpec } from "./spec.js";
import { HandoffError } from "../../../shared/errors.js";
import type { ViewLog } from "../../../shared/api/handoff.js";
import { findPublished, listPublished, publishedState, type PublishedRecord } from "../../lib/published-store.js";
import { fetchViewLog, unlockOnServer } from "../../lib/server-api.js";

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
  /** From the server's view log; null when it was not asked (--offline) or could not answer. */
  views_used: number | null;
  views_left: number | null;
  /** When each counted view happened (to the minute, oldest first, the server's last 20). */
  view_times: string[];
  /** Why the state is unknown; null otherwise. */
  state_reason: string | null;
  /** A passphrase link's wrong passphrases, wait and lock, from the server; null otherwise or when not asked. */
  passphrase: ViewLog["passphrase"] | null;
}

export interface PublishedResult {
  published: Entry[];
  /** --unlock: the id whose passphrase limit was reset (then `published` holds that link only). */
  unlocked?: string;
  warnings: string[];
}

/** How many view times the human listing shows per link (--json has them all). */
const VIEW_TIMES_SHOWN = 3;

export const command = implement<typeof publishedSpec>()({
  async run({ flags, ctx }): Promise<PublishedResult> {
    const configDir = configDirFor({ env: ctx.env, home: ctx.home });
    const call = ctx.http();
    if (flags.unlock !== undefined) {
      const record = await findPublished(configDir, flags.unlock);
      if (!record) {
        throw new HandoffError("not_found", `no owner token for ${flags.unlock.replace(/#.*$/, "")} on this machine`, {
          hint: "only the user who published a link, on the machine it was published from, can reset it; 'handoff published' lists yours",
        });
      }
      // The owner token goes only to the server that issued it (the record's).
      const log = await unlockOnServer(record.server, record.id, { value: record.owner_token, server: record.server }, call);
      return { published: [{ ...entryOf(record, publishedState(record, ctx.now())), ...fromLog(log) }], unlocked: record.id, warnings: [] };
    }
    const { records, warnings } = await listPublished(configDir);
    const entries = await Promise.all(
      records.map(async (record): Promise<Entry> => {
        const local = publishedState(record, ctx.now());
        const entry = entryOf(record, local);
        if (flags.offline) {
          // Without the server, a limited link's views may be used up: say so, never "active".
          if (local !== "active" || record.max_views === null) return entry;
          entry.state = "unknown";
          entry.state_reason = "--offline: the server was not asked (views may be used up)";
          return entry;
        }
        // The owner token (kept here) is what the view log answers to, for link and team links
        // alike; a revoked or expired link still says when it was read, until it is forgotten.
        try {
          const log = await fetchViewLog(record.server, record.id, { value: record.owner_token, server: record.server }, call);
          Object.assign(entry, fromLog(log));
        } catch (error) {
          const reason = (error as { reason?: string }).reason;
          // Forgotten (a day after it ended): the local record still says how it ended.
          entry.state = reason === "not_found" ? (local === "active" ? "gone" : local) : "unknown";
          if (entry.state === "unknown") entry.state_reason = error instanceof Error ? error.message : String(error);
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
      const views =
        e.views_used === null
          ? e.max_views === null
            ? "unlimited views"
            : `${e.max_views} views`
          : e.max_views === null
            ? `${e.views_used} view${e.views_used === 1 ? "" : "s"}, unlimited`
            : `${e.views_used} of ${e.max_views} views used, ${e.views_left ?? 0} left`;
      // Titles come from the handoff's author, urls from the server: escaped, never raw.
      lines.push(oneLine(`${e.state.padEnd(9)} ${e.id}  ${e.title ?? e.local_path ?? ""}`));
      lines.push(oneLine(`          ${e.url ?? "(no url)"}  ${e.scope}, ${views}, expires ${e.expires_at}`));
      if (e.view_times.length > 0) {
        const last = e.view_times.slice(-VIEW_TIMES_SHOWN).reverse();
        lines.push(oneLine(`          last viewed: ${last.join(", ")}${e.view_times.length > last.length ? ` (and ${e.view_times.length - last.length} earlier)` : ""}`));
      }
      if (e.state_reason) lines.push(`          (${oneLine(e.state_reason)})`);
      const passphrase = passphraseWords(e);
      if (passphrase) lines.push(`          ${passphrase}`);
    }
    if (result.unlocked) warnings.push(`Reset the passphrase limit of ${result.unlocked}: its next try is judged at once.`);
    return { out: lines.join("\n"), ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}) };
  },
  outcome: () => "ok",
  // The documented shape: {published} (and `unlocked` after --unlock); warnings about bad records go to stderr.
  json: (result) => ({ published: result.published, ...(result.unlocked ? { unlocked: result.unlocked } : {}) }),
});

function entryOf(record: PublishedRecord, state: Entry["state"]): Entry {
  return {
    id: record.id,
    url: record.url_without_key ?? null,
    title: record.title ?? null,
    local_path: record.local_path ?? null,
    scope: record.scope,
    created_at: record.created_at,
    expires_at: record.expires_at,
    max_views: record.max_views,
    state,
    views_used: null,
    views_left: null,
    view_times: [],
    state_reason: null,
    passphrase: null,
  };
}

/** What the server's view log says about a link. */
function fromLog(log: ViewLog): Pick<Entry, "state" | "views_used" | "views_left" | "view_times" | "passphrase"> {
  return { state: log.state, views_used: log.views_used, views_left: log.views_left, view_times: log.view_times, passphrase: log.passphrase ?? null };
}

/** A passphrase link's line: locked (and how to reset it), slowed, or how many wrong tries so far. */
function passphraseWords(entry: Entry): string | undefined {
  const limit = entry.passphrase;
  if (!limit || entry.state !== "active") return undefined;
  if (limit.locked_at !== null) {
    return `passphrase: locked after ${limit.wrong_passphrases} wrong tries (${limit.locked_at}); reset it with 'handoff published --unlock ${entry.id}', or revoke it`;
  }
  if (limit.wrong_passphrases === 0) return undefined;
  const wait = limit.judge_after !== null ? `; slowed down: no try is judged before ${limit.judge_after}` : "";
  return `passphrase: ${limit.wrong_passphrases} wrong tr${limit.wrong_passphrases === 1 ? "y" : "ies"} (locks at ${limit.lock_after})${wait}; reset: 'handoff published --unlock ${entry.id}'`;
}
