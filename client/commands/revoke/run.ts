import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { isShareUrl, parseShareUrl, sameServer } from "../../../shared/api/share-url.js";
import { configDirFor } from "../../lib/config.js";
import { findPublished, markRevoked } from "../../lib/published-store.js";
import { revokeOnServer } from "../../lib/server-api.js";
import type { revokeSpec } from "./spec.js";
import { recordTimestamp } from "../../../shared/time/timestamps.js";

export interface RevokeResult {
  id: string;
  server: string;
  revoked: true;
  revoked_at: string;
}

export const command = implement<typeof revokeSpec>()({
  async run({ positionals, ctx }): Promise<RevokeResult> {
    const configDir = configDirFor({ env: ctx.env, home: ctx.home });
    const target = positionals[0]!;
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
  human: (result) => ({ err: `Revoked ${result.id} on ${result.server}: every later read fails as revoked, and the body is deleted.` }),
  outcome: () => "ok",
});
