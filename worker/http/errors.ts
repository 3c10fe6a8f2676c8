import type { ErrorHandler, NotFoundHandler } from "hono";
import { errorBody, HandoffError, httpStatusFor, isHandoffError } from "../../shared/errors.js";
import type { AppEnv } from "../bindings.js";

/**
 * The one error path: a HandoffError becomes its status and `{error: {code, message}}`; anything
 * else is a bug, logged with its cause and answered with a bare 500 `internal`.
 */
export const onError: ErrorHandler<AppEnv> = (error, c) => {
  const handoffError = isHandoffError(error) ? error : new HandoffError("internal", "internal error", { cause: error });
  const status = httpStatusFor(handoffError.reason);
  if (status >= 500) console.error(`${c.req.method} ${new URL(c.req.url).pathname}: ${handoffError.message}`, handoffError.cause ?? "");
  // A 5xx message may name internals (a binding, a config var): it stays in the log.
  const body = status >= 500 ? { error: { code: handoffError.reason, message: "internal error" } } : errorBody(handoffError);
  const retryAfter = handoffError.details?.retry_after;
  const headers: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) };
  return c.json(body, status as 400, headers);
};

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  onError(new HandoffError("not_found", `no route ${c.req.method} ${new URL(c.req.url).pathname}`), c) as Response;
