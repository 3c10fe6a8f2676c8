import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import type { AppContext } from "../bindings.js";
import { ownerTokenHash } from "../http/auth.js";
import { accessFor } from "../storage/durable-objects.js";

/** `DELETE /v1/handoffs/:id` with the owner token: 204; later reads are 410 `revoked`; the body is deleted. */
export async function revokeHandoff(c: AppContext): Promise<Response> {
  const hash = await ownerTokenHash(c.req.header("Authorization"));
  const id = c.req.param("id") ?? "";
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  const outcome = await accessFor(c.env, id).revoke(hash);
  if (!outcome.ok) {
    throw outcome.reason === "not_found" ? new HandoffError("not_found", "no handoff with this id") : new HandoffError("forbidden", "this owner token does not own this handoff");
  }
  return c.body(null, 204);
}
