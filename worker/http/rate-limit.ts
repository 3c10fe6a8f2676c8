import type { MiddlewareHandler } from "hono";
import { HandoffError } from "../../shared/errors.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
import type { AppEnv, Bindings } from "../bindings.js";
import { readConfig } from "../config.js";

/**
 * Who a request counts against: a hash of the client address. Never a credential: the limiter
 * runs before any credential is looked up, so a token cannot be a key yet (and a made-up token
 * must not buy a fresh allowance).
 */
export async function clientKey(request: Request): Promise<string> {
  return `ip:${await sha256Base64Url(request.headers.get("CF-Connecting-IP") ?? "unknown")}`;
}

/** Counts one request against `limiter` (a [[ratelimits]] binding); 429 with Retry-After when over. */
export async function enforceRateLimit(limiter: RateLimit, key: string, retryAfterSeconds: number): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) {
    throw new HandoffError("rate_limited", "too many requests from this client", {
      hint: `retry in ${retryAfterSeconds} seconds`,
      details: { retry_after: retryAfterSeconds },
    });
  }
}

export type LimiterName = "PUBLISH_LIMITER" | "READ_LIMITER";

/**
 * The first step of every route that touches storage: the request counts against its client
 * before anything else runs, so a refused request never reaches a credential lookup or a
 * Durable Object, and a failed credential has already been counted.
 */
export function rateLimited(limiter: LimiterName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const env: Bindings = c.env;
    await enforceRateLimit(env[limiter], await clientKey(c.req.raw), readConfig(env).rateLimitPeriodSeconds);
    await next();
  };
}
