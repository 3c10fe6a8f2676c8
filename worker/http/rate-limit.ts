import { HandoffError } from "../../shared/errors.js";
import { sha256Base64Url } from "../../shared/tokens.js";

/**
 * Who a request counts against: a verified credential's hash when there is one, otherwise a hash
 * of the client address. Unverified tokens are never keys, or rotating made-up tokens would
 * escape the limit.
 */
export async function clientKey(request: Request, credentialHash: string | null): Promise<string> {
  if (credentialHash !== null) return `cred:${credentialHash}`;
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
