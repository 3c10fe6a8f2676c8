import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../bindings.js";

/** The strict default CSP; a response that needs more (the share page's style) sets its own. */
export const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const HEADERS: Record<string, string> = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/**
 * Runs around everything, so successes, errors (the onError response lands in c.res before this
 * resumes) and 404s all leave with the same headers. Nothing is cached (`no-store`) unless a
 * handler says otherwise on a success: only the landing page does, as it is the same for everyone.
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const headers = c.res.headers;
  for (const [name, value] of Object.entries(HEADERS)) headers.set(name, value);
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", DEFAULT_CSP);
  if (!c.res.ok || !headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
};
