import type { TeamListing } from "../../shared/api/handoff.js";
import { HandoffError } from "../../shared/errors.js";
import type { AppContext } from "../bindings.js";
import { resolveCredential } from "../http/auth.js";
import { teamFor } from "../storage/durable-objects.js";
import { listTeamEntries } from "../storage/meta-kv.js";

/**
 * `GET /v1/team/handoffs` with a team token: the team's live handoffs from the KV index, each with
 * its sealed card from the team's object (null when it was published without one). The server
 * cannot read a card: members open them with the team key.
 */
export async function listTeamHandoffs(c: AppContext): Promise<Response> {
  const credential = await resolveCredential(c.env, c.req.header("Authorization"));
  if (credential.kind === "anonymous") throw new HandoffError("unauthorized", "listing needs a team token", { hint: "send 'Authorization: Bearer <team token>'" });
  if (credential.kind !== "team") throw new HandoffError("forbidden", "listing needs a team token, not a publish token");
  const now = Date.now();
  const [entries, cards] = await Promise.all([listTeamEntries(c.env.META, credential.team, now), teamFor(c.env, credential.team).cards(now)]);
  const listing: TeamListing = { team: credential.team, handoffs: entries.map((entry) => ({ ...entry, card: cards[entry.id] ?? null })) };
  return c.json(listing);
}
