import { z } from "zod";
import type { ExpiryBounds } from "../shared/api/publish.js";
import { DEFAULT_EXPIRY_BOUNDS } from "../shared/api/publish.js";
import { HandoffError } from "../shared/errors.js";
import type { Bindings } from "./bindings.js";

export interface ServerConfig {
  maxBodyBytes: number;
  expiry: ExpiryBounds;
  allowAnonymousPublish: boolean;
  /** Retry-After on a 429; matches the `period` of the [[ratelimits]] bindings. */
  rateLimitPeriodSeconds: number;
}

const intVar = (fallback: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .optional()
    .transform((value) => value ?? fallback);

const varsSchema = z.object({
  MAX_BODY_BYTES: intVar(1_048_576, 100 * 1_048_576),
  MIN_EXPIRES_IN_SECONDS: intVar(DEFAULT_EXPIRY_BOUNDS.min, 31_536_000),
  MAX_EXPIRES_IN_SECONDS: intVar(DEFAULT_EXPIRY_BOUNDS.max, 31_536_000),
  DEFAULT_EXPIRES_IN_SECONDS: intVar(DEFAULT_EXPIRY_BOUNDS.default, 31_536_000),
  ALLOW_ANONYMOUS_PUBLISH: z.enum(["true", "false"]).optional(),
  RATE_LIMIT_PERIOD_SECONDS: intVar(60, 3600),
});

// An env object lives as long as its isolate, so the vars are parsed once, not per request.
const cache = new WeakMap<Bindings, ServerConfig>();

/** The typed configuration of `env`; a bad var is an `internal` error naming it (logged, 500). */
export function readConfig(env: Bindings): ServerConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = varsSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HandoffError("internal", `server configuration: ${String(issue.path[0])} is invalid (${issue.message})`);
  }
  const vars = parsed.data;
  const expiry = { min: vars.MIN_EXPIRES_IN_SECONDS, max: vars.MAX_EXPIRES_IN_SECONDS, default: vars.DEFAULT_EXPIRES_IN_SECONDS };
  if (!(expiry.min <= expiry.default && expiry.default <= expiry.max)) {
    throw new HandoffError("internal", "server configuration: need MIN_EXPIRES_IN_SECONDS <= DEFAULT_EXPIRES_IN_SECONDS <= MAX_EXPIRES_IN_SECONDS");
  }
  const config: ServerConfig = {
    maxBodyBytes: vars.MAX_BODY_BYTES,
    expiry,
    allowAnonymousPublish: vars.ALLOW_ANONYMOUS_PUBLISH === "true",
    rateLimitPeriodSeconds: vars.RATE_LIMIT_PERIOD_SECONDS,
  };
  cache.set(env, config);
  return config;
}
