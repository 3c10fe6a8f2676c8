import type { TeamListing } from "../../shared/api/handoff.js";
import { HandoffError } from "../../shared/errors.js";
import type { AppContext } from "../bindings.js";
import { resolveCredential } from "../http/auth.js";
import { listTeamEntries } from "../storage/meta-kv.js";

/** `GET /v1/team/handoffs` with a team token: the team's live handoffs, metadata only, from the KV index. */
export async function listTeamHandoffs(c: AppContext): Promise<Response> {
  const credential = await resolveCredential(c.env, c.req.header("Authorization"));
  if (credential.kind === "anonymous") throw new HandoffError("unauthorized", "listing needs a team token", { hint: "send 'Authorization: Bearer <team token>'" });
  if (credential.kind !== "team") throw new HandoffError("forbidden", "listing needs a team token, not a publish token");
  const listing: TeamListing = { team: credential.team, handoffs: await listTeamEntries(c.env.META, credential.team, Date.now()) };
  return c.json(listing);
}
