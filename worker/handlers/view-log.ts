import type { ViewLog } from "../../shared/api/handoff.js";
import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import type { AppContext } from "../bindings.js";
import { ownerTokenHash } from "../http/auth.js";
import { accessFor } from "../storage/durable-objects.js";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `GET /v1/handoffs/:id/views` with the owner token: the link's state, its views and the view log.
 * Only the owner: any other credential is 403, and nothing here counts a view.
 */
export async function readViewLog(c: AppContext): Promise<Response> {
  const hash = await ownerTokenHash(c.req.header("Authorization"));
  const id = c.req.param("id") ?? "";
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  const decision = await accessFor(c.env, id).ownerView(hash);
  if (!decision.ok) {
    throw decision.reason === "not_found"
      ? new HandoffError("not_found", "no handoff with this id", { hint: "a link is forgotten a day after it expires, is revoked or is used up" })
      : new HandoffError("forbidden", "this owner token does not own this handoff");
  }
  const view = decision.view;
  const log: ViewLog = {
    id: view.id,
    state: view.state,
    views_used: view.views_used,
    max_views: view.max_views,
    views_left: view.max_views === null ? null : Math.max(0, view.max_views - view.views_used),
    expires_at: iso(view.expires_at),
    revoked_at: view.revoked_at === null ? null : iso(view.revoked_at),
    view_times: view.view_times.map(iso),
  };
  return c.json(log);
}
