import { HandoffError } from "../../shared/errors.js";

/**
 * The API's per-call transport options, apart from the API client (server-api.ts): every run
 * context can read them without loading the response schemas that client checks against.
 */

export const PUBLISH_TIMEOUT_MS = 20_000;
export const READ_TIMEOUT_MS = 15_000;
/** Overrides every API timeout, in milliseconds: for a slow link, or to test the timeout path. */
export const TIMEOUT_ENV = "HANDOFF_HTTP_TIMEOUT_MS";
const MAX_TIMEOUT_MS = 600_000;

/** Per-call transport options, read from the environment at the command's edge (`callOptionsFor`). */
export interface CallOptions {
  timeoutMs?: number;
}

/**
 * The timeout `HANDOFF_HTTP_TIMEOUT_MS` asks for, or `{}` for the defaults. A malformed value is
 * refused rather than ignored, so a typo cannot silently leave a 20-second wait.
 */
export function callOptionsFor(env: Record<string, string | undefined>): CallOptions {
  const text = env[TIMEOUT_ENV];
  if (text === undefined || text === "") return {};
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > MAX_TIMEOUT_MS) {
    throw new HandoffError("invalid_option", `${TIMEOUT_ENV} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got '${text}'`, {
      hint: `unset ${TIMEOUT_ENV} to use the defaults (${PUBLISH_TIMEOUT_MS / 1000} s to publish, ${READ_TIMEOUT_MS / 1000} s to read)`,
    });
  }
  return { timeoutMs: Number(text) };
}
