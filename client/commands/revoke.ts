import { homedir } from "node:os";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { isShareUrl, parseShareUrl, sameServer } from "../../shared/share-url.js";
import { parseCommandArgs } from "../args.js";
import { configDirFor } from "../config.js";
import type { Io } from "../io.js";
import { findPublished, markRevoked } from "../published-store.js";
import { callOptionsFor, revokeOnServer } from "../publish/server-api.js";
import { stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff revoke URL|ID [--json]

Revoke a handoff you published from this machine: every later read of its share link fails as
revoked, and the server deletes the body. Uses the owner token kept (0600) in the config folder.

Exit codes: 0 revoked; 2 usage; 3 unknown here, server unreachable or refused.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("revoke", args, {});
  if (positionals.length !== 1) throw new HandoffError("usage", "handoff revoke takes one share URL or id", { hint: "run 'handoff published' to list yours" });
  const configDir = configDirFor({ env: io.env, home: io.env.HOME ?? homedir() });
  const call = callOptionsFor(io.env);
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
  await revokeOnServer(record.server, record.id, { value: record.owner_token, server: record.server }, call);
  const updated = await markRevoked(configDir, record.id);
  const result = { id: record.id, server: record.server, revoked: true, revoked_at: updated?.revoked_at ?? new Date().toISOString() };
  io.err(`Revoked ${record.id} on ${record.server}: every later read fails as revoked, and the body is deleted.`);
  if (values.json) io.out(stringifyForTerminal(result));
  return EXIT.ok;
}
