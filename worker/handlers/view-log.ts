import type { ViewLog } from "../../shared/api/handoff.js";
import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import type { AppContext } from "../bindings.js";
import { type OwnerDecision, PASSPHRASE_LOCK_AFTER, PASSPHRASE_SLOW_AFTER } from "../durable/access-state.js";
import type { HandoffAccess } from "../durable/handoff-access.js";
import { ownerTokenHash } from "../http/auth.js";
import { accessFor } from "../storage/durable-objects.js";

const iso = (ms: number) => new Date(ms).toISOString();

type OwnerCall = (access: DurableObjectStub<HandoffAccess>, ownerHash: string) => Promise<OwnerDecision>;

/** Runs an owner-only call on the link `:id` and answers with its view log; any other credential is 403. */
async function asOwner(c: AppContext, act: OwnerCall): Promise<Response> {
  const hash = await ownerTokenHash(c.req.header("Authorization"));
  const id = c.req.param("id") ?? "";
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  const decision = await act(accessFor(c.env, id), hash);
  if (!decision.ok) {
    throw decision.reason === "not_found"
      ? new HandoffError("not_found", "no handoff with this id", { hint: "a link is forgotten a day after it expires, is revoked or is used up" })
      : new HandoffError("forbidden", "this owner token does not own this handoff");
  }
  return c.json(viewLogOf(decision.view));
}

/**
 * `GET /v1/handoffs/:id/views` with the owner token: the link's state, its views and the view log.
 * Only the owner: any other credential is 403, and nothing here counts a view.
 */
export const readViewLog = (c: AppContext) => asOwner(c, (access, hash) => access.ownerView(hash));

/**
 * `POST /v1/handoffs/:id/unlock` with the owner token: a passphrase link's wrong passphrases, wait
 * and lock are reset, so the next try is judged at once; answers the view log after it.
 */
export const unlockHandoff = (c: AppContext) => asOwner(c, (access, hash) => access.unlock(hash));

function viewLogOf(view: Extract<OwnerDecision, { ok: true }>["view"]): ViewLog {
  const limit = view.passphrase;
  return {
    id: view.id,
    state: view.state,
    views_used: view.views_used,
    max_views: view.max_views,
    views_left: view.max_views === null ? null : Math.max(0, view.max_views - view.views_used),
    expires_at: iso(view.expires_at),
    revoked_at: view.revoked_at === null ? null : iso(view.revoked_at),
    view_times: view.view_times.map(iso),
    ...(limit === undefined
      ? {}
      : {
          passphrase: {
            wrong_passphrases: limit.wrong,
            slow_after: PASSPHRASE_SLOW_AFTER,
            lock_after: PASSPHRASE_LOCK_AFTER,
            judge_after: limit.judge_after === null ? null : iso(limit.judge_after),
            locked_at: limit.locked_at === null ? null : iso(limit.locked_at),
          },
        }),
  };
}
