import * as z from "zod/mini";
import type { ExpiryBounds } from "../shared/api/publish.js";
import { DEFAULT_EXPIRY_BOUNDS } from "../shared/api/publish.js";
import { HandoffError } from "../shared/errors.js";
import { DEFAULT_SERVER_BODY_LIMIT } from "../shared/document/size-limits.js";
import type { Bindings } from "./bindings.js";

export interface ServerConfig {
  maxBodyBytes: number;
  expiry: ExpiryBounds;
  allowAnonymousPublish: boolean;
  /** Retry-After on a 429; matches the `period` of the [[ratelimits]] bindings. */
  rateLimitPeriodSeconds: number;
}

const wholeNumber = z.optional(z.string().check(z.regex(/^[1-9]\d{0,9}$/, { message: "must be a whole number above 0" })));

const varsSchema = z.object({
  MAX_BODY_BYTES: wholeNumber,
  MIN_EXPIRES_IN_SECONDS: wholeNumber,
  MAX_EXPIRES_IN_SECONDS: wholeNumber,
  DEFAULT_EXPIRES_IN_SECONDS: wholeNumber,
  ALLOW_ANONYMOUS_PUBLISH: z.optional(z.enum(["true", "false"], { error: "must be 'true' or 'false'" })),
  RATE_LIMIT_PERIOD_SECONDS: wholeNumber,
});

const numberOr = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number(text));

// An env object lives as long as its isolate, so the vars are parsed once, not per request.
const cache = new WeakMap<Bindings, ServerConfig>();

/** The typed configuration of `env`; a bad var is an `internal` error naming it (logged, 500). */
export function readConfig(env: Bindings): ServerConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = varsSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HandoffError("internal", `server configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const vars = parsed.data;
  const expiry = {
    min: numberOr(vars.MIN_EXPIRES_IN_SECONDS, DEFAULT_EXPIRY_BOUNDS.min),
    max: numberOr(vars.MAX_EXPIRES_IN_SECONDS, DEFAULT_EXPIRY_BOUNDS.max),
    default: numberOr(vars.DEFAULT_EXPIRES_IN_SECONDS, DEFAULT_EXPIRY_BOUNDS.default),
  };
  if (!(expiry.min <= expiry.default && expiry.default <= expiry.max)) {
    throw new HandoffError("internal", "server configuration: need MIN_EXPIRES_IN_SECONDS <= DEFAULT_EXPIRES_IN_SECONDS <= MAX_EXPIRES_IN_SECONDS");
  }
  const config: ServerConfig = {
    maxBodyBytes: numberOr(vars.MAX_BODY_BYTES, DEFAULT_SERVER_BODY_LIMIT),
    expiry,
    allowAnonymousPublish: vars.ALLOW_ANONYMOUS_PUBLISH === "true",
    rateLimitPeriodSeconds: numberOr(vars.RATE_LIMIT_PERIOD_SECONDS, 60),
  };
  cache.set(env, config);
  return config;
}
