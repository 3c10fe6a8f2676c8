import { homedir } from "node:os";
import { HandoffError } from "../../shared/errors.js";
import { implement } from "../command.js";
import { configDirFor } from "../config.js";
import { findPublished, markRevoked } from "../published-store.js";
import { callOptionsFor, revokeOnServer } from "../publish/server-api.js";
import type { revokeSpec } from "../registry.js";

export interface RevokeResult {
  id: string;
  server: string;
  revoked: true;
  revoked_at: string;
}

export const command = implement<typeof revokeSpec>()({
  async run({ positionals, io }): Promise<RevokeResult> {
    const configDir = configDirFor({ env: io.env, home: io.env.HOME ?? homedir() });
    const target = positionals[0]!;
    const record = await findPublished(configDir, target);
    if (!record) {
      throw new HandoffError("not_found", `no owner token for ${target.replace(/#.*$/, "")} on this machine`, {
        hint: "only the user who published a handoff, on the machine it was published from, can revoke it; 'handoff published' lists yours",
      });
    }
    await revokeOnServer(record.server, record.id, record.owner_token, callOptionsFor(io.env));
    const updated = await markRevoked(configDir, record.id);
    return { id: record.id, server: record.server, revoked: true, revoked_at: updated?.revoked_at ?? new Date().toISOString() };
  },
  human: (result) => ({ err: `Revoked ${result.id} on ${result.server}: every later read fails as revoked, and the body is deleted.` }),
  outcome: () => "ok",
});
