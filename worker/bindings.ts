import type { Context } from "hono";
import type { HandoffAccess } from "./durable/handoff-access.js";
import type { HandoffRegistry } from "./durable/handoff-registry.js";

/**
 * What wrangler.toml binds. Limits are strings because that is how [vars] and `--var` arrive;
 * worker/config.ts parses them once per env. The Durable Objects get this type as Cloudflare.Env
 * (worker/env.d.ts) and never import this file: it names them, they do not name it back.
 */
export interface Bindings {
  BODIES: R2Bucket;
  META: KVNamespace;
  ACCESS: DurableObjectNamespace<HandoffAccess>;
  REGISTRY: DurableObjectNamespace<HandoffRegistry>;
  PUBLISH_LIMITER: RateLimit;
  READ_LIMITER: RateLimit;
  /** Static assets (dist/public): the share page's reader script. */
  ASSETS: Fetcher;
  MAX_BODY_BYTES?: string;
  MIN_EXPIRES_IN_SECONDS?: string;
  MAX_EXPIRES_IN_SECONDS?: string;
  DEFAULT_EXPIRES_IN_SECONDS?: string;
  ALLOW_ANONYMOUS_PUBLISH?: string;
  RATE_LIMIT_PERIOD_SECONDS?: string;
  /** Secret: the operator's bearer token for /v1/admin/*. Unset: the operator API is off. */
  ADMIN_TOKEN?: string;
}

export type AppEnv = { Bindings: Bindings };
export type AppContext = Context<AppEnv>;
