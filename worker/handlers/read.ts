import type { HandoffMeta } from "../../shared/api/handoff.js";
import { HandoffError } from "../../shared/errors.js";
import { READ_TOKEN_HEADER } from "../../shared/crypto/read-token.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
import type { AppContext } from "../bindings.js";
import { readerTeam } from "../http/auth.js";
import { getBody } from "../storage/bodies-r2.js";
import { accessFor } from "../storage/durable-objects.js";
import { accessDenied } from "./access-errors.js";
import { VIEWS_LEFT_HEADER } from "../../shared/api/limits.js";

function handoffId(c: AppContext): string {
  const id = c.req.param("id") ?? "";
  // A malformed id cannot exist: answer without waking a Durable Object for it.
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  return id;
}

const admitReader = (c: AppContext) => readerTeam(c.env, c.req.header("Authorization"));

/**
 * The SHA-256 of the read token a reader sent, null when it sent none. A malformed token is hashed
 * like any other: it cannot match, and the answer is the same "does not match" as a wrong one.
 */
async function presentedReadHash(header: string | undefined): Promise<string | null> {
  return header === undefined ? null : sha256Base64Url(header);
}

/** `GET /v1/handoffs/:id`: the body bytes; counts one view, decided by the handoff's Durable Object. */
export async function readHandoff(c: AppContext): Promise<Response> {
  // Hono answers HEAD by running the GET handler; here that would spend a view for nothing.
  if (c.req.method === "HEAD") {
    throw new HandoffError("usage", "HEAD is not served here: it would count a view", { hint: "use GET /v1/handoffs/:id/meta" });
  }
  const id = handoffId(c);
  const team = await admitReader(c);
  const access = accessFor(c.env, id);
  const readHash = await presentedReadHash(c.req.header(READ_TOKEN_HEADER));
  // The body is fetched while the Durable Object decides, so a read costs the slower of the two
  // round trips, not their sum. It is only sent if the decision allows it.
  const [decision, object] = await Promise.all([access.consumeView(team, readHash), getBody(c.env.BODIES, id)]);
  if (!decision.ok) {
    await object?.body.cancel();
    throw accessDenied(decision);
  }
  if (object === null) {
    // Revoked or expired between the decision and the read: say which.
    const now = await access.peek(team);
    if (!now.ok) throw accessDenied(now);
    throw new HandoffError("internal", `body of ${id} is missing while its access state is live`);
  }
  const { max_views, views_used } = decision.view;
  return new Response(object.body, {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(object.size),
      // The reader learns what this read left, without a second request that could race it.
      ...(max_views === null ? {} : { [VIEWS_LEFT_HEADER]: String(Math.max(0, max_views - views_used)) }),
    },
  });
}

/** `GET /v1/handoffs/:id/meta`: what a reader may know; never counts a view. */
export async function readHandoffMeta(c: AppContext): Promise<Response> {
  const id = handoffId(c);
  const team = await admitReader(c);
  const decision = await accessFor(c.env, id).peek(team);
  if (!decision.ok) throw accessDenied(decision);
  const view = decision.view;
  const meta: HandoffMeta = {
    id: view.id,
    scope: view.scope,
    size: view.size,
    created_at: new Date(view.created_at).toISOString(),
    expires_at: new Date(view.expires_at).toISOString(),
    max_views: view.max_views,
    views_used: view.views_used,
    views_left: view.max_views === null ? null : view.max_views - view.views_used,
    ...(view.passphrase ? { passphrase: true as const } : {}),
  };
  return c.json(meta);
}
