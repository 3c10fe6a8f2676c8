import type { ErrorHandler, NotFoundHandler } from "hono";
import { errorBody, HandoffError, httpStatusFor, isHandoffError } from "../../shared/errors.js";
import type { AppEnv } from "../bindings.js";

/**
 * The one error path: a HandoffError becomes its status and `{error: {code, message}}`; anything
 * else is a bug, logged with its cause and answered with a bare 500 `internal`.
 */
export const onError: ErrorHandler<AppEnv> = (error, c) => {
  const handoffError = isHandoffError(error) ? error : isOverloaded(error) ? overloaded(error) : new HandoffError("internal", "internal error", { cause: error });
  const status = httpStatusFor(handoffError.reason);
  if (status >= 500) console.error(`${c.req.method} ${new URL(c.req.url).pathname}: ${handoffError.message}`, handoffError.cause ?? "");
  // A 5xx message may name internals (a binding, a config var): it stays in the log.
  const body = status >= 500 ? { error: { code: handoffError.reason, message: "internal error" } } : errorBody(handoffError);
  const retryAfter = handoffError.details?.retry_after;
  const headers: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) };
  return c.json(body, status as 400, headers);
};

/**
 * A Durable Object past what it can queue (a link read by very many clients at once: all of its
 * reads go to its one object, which keeps the view count exact) throws with `overloaded` set.
 * Cloudflare says not to retry those at once; the client is told to come back in a second.
 */
const OVERLOAD_RETRY_SECONDS = 1;

function isOverloaded(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { overloaded?: unknown }).overloaded === true;
}

function overloaded(cause: unknown): HandoffError {
  return new HandoffError("rate_limited", "this link is being read by too many clients at once", {
    hint: `retry in ${OVERLOAD_RETRY_SECONDS} second`,
    details: { retry_after: OVERLOAD_RETRY_SECONDS },
    cause,
  });
}

export const notFound: NotFoundHandler<AppEnv> = (c) => onError(new HandoffError("not_found", `no route ${c.req.method} ${new URL(c.req.url).pathname}`), c) as Response;
