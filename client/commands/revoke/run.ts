import { HandoffError, isHandoffError } from "../../../shared/errors.js";
import { implement, type Outcome } from "../command.js";
import { isShareUrl, parseShareUrl, sameServer } from "../../../shared/api/share-url.js";
import { configDirFor } from "../../lib/config.js";
import type { RunContext } from "../../lib/run-context.js";
import { confirm } from "../confirm.js";
import type { Io } from "../../platform/io.js";
import { oneLine } from "../../platform/terminal.js";
import { findPublished, listPublished, markRevoked, publishedState } from "../../lib/published-store.js";
import { revokeOnServer } from "../../lib/server-api.js";
import type { revokeSpec } from "./spec.js";
import { recordTimestamp } from "../../../shared/time/timestamps.js";

export interface RevokeOne {
  id: string;
  server: string;
  revoked: true;
  revoked_at: string;
}

/** One link of `revoke --all`: revoked now, already over on the server (how), or failed (why). */
export interface RevokeAllEntry {
  id: string;
  server: string;
  title: string | null;
  outcome: "revoked" | "already_revoked" | "expired" | "exhausted" | "gone" | "failed";
  /** The error of a failed revoke; null otherwise. */
  error: { code: string; message: string } | null;
}

export type RevokeResult = RevokeOne | { all: true; confirmed: boolean; links: RevokeAllEntry[] };

export const command = implement<typeof revokeSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<RevokeResult> {
    const configDir = configDirFor({ env: ctx.env, home: ctx.home });
    if (flags.all) {
      if (positionals.length > 0)
        throw new HandoffError("usage", "--all revokes every live link you published: pass no URL or id with it", { hint: "run 'handoff revoke --all' or 'handoff revoke <id>'" });
      return revokeAll(configDir, Boolean(flags.yes), io, ctx);
    }
    if (flags.yes) throw new HandoffError("usage", "--yes goes with --all", { hint: "run 'handoff revoke --all --yes'" });
    const target = positionals[0];
    if (target === undefined) throw new HandoffError("usage", "missing a share URL or id ('handoff published' lists yours), or --all", { hint: "run 'handoff revoke <id>' or 'handoff revoke --all'" });
    const record = await findPublished(configDir, target);
    if (!record) {
      throw new HandoffError("not_found", `no owner token for ${target.replace(/#.*$/, "")} on this machine`, {
        hint: "only the user who published a handoff, on the machine it was published from, can revoke it; 'handoff published' lists yours",
      });
    }
    // The owner token goes to the server that issued it, and a link naming another server is refused
    // rather than followed: the id alone must not decide where an owner token is sent.
    const named = isShareUrl(target) ? parseShareUrl(target) : undefined;
    if (named?.ok && !sameServer(named.value.server, record.server)) {
      throw new HandoffError("not_found", `no owner token for ${named.value.server} on this machine: you published ${record.id} on ${record.server}`, {
        hint: `check the link; to revoke yours, run 'handoff revoke ${record.id}'`,
      });
    }
    await revokeOnServer(record.server, record.id, { value: record.owner_token, server: record.server }, ctx.http());
    const updated = await markRevoked(configDir, record.id, ctx.now());
    return { id: record.id, server: record.server, revoked: true, revoked_at: updated?.revoked_at ?? recordTimestamp(ctx.now()) };
  },
  human(result) {
    if (!("all" in result)) return { err: `Revoked ${result.id} on ${result.server}: every later read fails as revoked, and the body is deleted.` };
    if (!result.confirmed) return { err: "Nothing revoked." };
    if (result.links.length === 0) return { err: "No live links published from this machine: nothing to revoke." };
    const lines = result.links.map((l) => oneLine(`${l.outcome.padEnd(15)} ${l.id}  ${l.title ?? ""}${l.error ? `  (${l.error.message})` : ""}`));
    const revoked = result.links.filter((l) => l.outcome === "revoked").length;
    const failed = result.links.filter((l) => l.outcome === "failed").length;
    return {
      out: lines.join("\n"),
      err: `Revoked ${revoked} of ${result.links.length} link${result.links.length === 1 ? "" : "s"}${failed > 0 ? `; ${failed} failed (retry 'handoff revoke --all')` : ""}.`,
    };
  },
  outcome(result): Outcome {
    if (!("all" in result)) return "ok";
    const failed = result.links.find((l) => l.outcome === "failed");
    return failed ? ((failed.error?.code ?? "network") as Outcome) : "ok";
  },
});

/**
 * Every link this machine published that is not known to be over, revoked one by one, each
 * reported. A link the server already ended is recorded as such, not as a failure.
 */
async function revokeAll(configDir: string, yes: boolean, io: Io, ctx: RunContext): Promise<RevokeResult> {
  const { records, warnings } = await listPublished(configDir);
  for (const warning of warnings) ctx.warn(warning);
  const now = ctx.now();
  const live = records.filter((r) => publishedState(r, now) === "active");
  if (live.length === 0) return { all: true, confirmed: true, links: [] };
  if (!yes && !(await confirm(io, `Revoke all ${live.length} live link${live.length === 1 ? "" : "s"} published from this machine?`, "--yes"))) {
    return { all: true, confirmed: false, links: [] };
  }
  const call = ctx.http();
  const links = await Promise.all(
    live.map(async (record): Promise<RevokeAllEntry> => {
      const base = { id: record.id, server: record.server, title: record.title ?? null };
      try {
        await revokeOnServer(record.server, record.id, { value: record.owner_token, server: record.server }, call);
        await markRevoked(configDir, record.id, ctx.now());
        return { ...base, outcome: "revoked", error: null };
      } catch (error) {
        if (!isHandoffError(error)) throw error;
        if (error.reason === "revoked") await markRevoked(configDir, record.id, ctx.now());
        const ended = { revoked: "already_revoked", expired: "expired", exhausted: "exhausted", not_found: "gone" } as const;
        const outcome = ended[error.reason as keyof typeof ended];
        return outcome ? { ...base, outcome, error: null } : { ...base, outcome: "failed", error: { code: error.reason, message: error.message } };
      }
    }),
  );
  return { all: true, confirmed: true, links };
}
