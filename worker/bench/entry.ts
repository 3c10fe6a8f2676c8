// The worker as the read benchmark runs it (wrangler.bench.toml only, never deployed): the same
// app plus a constant route serving the same 20 KiB from memory through the same middleware, the
// baseline the share read is measured against; and the share read without the rate limiter, to
// show what the limiter costs.
import { createApp } from "../app.js";
import { addBenchClockRoutes } from "./clock.js";
import type { Bindings } from "../bindings.js";
import worker from "../index.js";

// HandoffAccess with the clock-driving methods of bench-clock.ts; the same object otherwise.
export { HandoffAccess } from "./clock.js";
export { HandoffRegistry } from "../index.js";

// Only handlers and Durable Object classes may be exported from a main module.
const BENCH_BODY_BYTES = 20 * 1024;
const constantBody = new Uint8Array(BENCH_BODY_BYTES).map((_, i) => i % 251);
const NO_LIMITER_PREFIX = "/bench/no-limiter";
const unlimited: RateLimit = { limit: async () => ({ success: true }) };

const app = createApp();
addBenchClockRoutes(app);
app.get("/bench/constant", (c) => c.body(constantBody, 200, { "Content-Type": "application/octet-stream", "Content-Length": String(BENCH_BODY_BYTES) }));

import { credentialFor } from "../storage/durable-objects.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
// What a credential cache would save, measured inside workerd (no HTTP noise): `n` lookups of the
// bearer token in its own registry object, one after another; workerd's clock advances across
// each Durable Object call, so the total over many calls is a fair mean.
app.get("/bench/credential-lookups", async (c) => {
  const n = Math.min(Number(c.req.query("n") ?? "100"), 5000);
  const stub = credentialFor(c.env, await sha256Base64Url((c.req.header("Authorization") ?? "").replace(/^Bearer /, "")));
  const start = Date.now();
  for (let i = 0; i < n; i++) if ((await stub.resolve()) === null) return c.json({ error: "unknown token" }, 400);
  return c.json({ n, ms: Date.now() - start });
});
export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname.startsWith(NO_LIMITER_PREFIX)) {
      url.pathname = url.pathname.slice(NO_LIMITER_PREFIX.length);
      return app.fetch(new Request(url, request), { ...env, READ_LIMITER: unlimited }, ctx);
    }
    return app.fetch(request, env, ctx);
  },
  scheduled: worker.scheduled,
} satisfies ExportedHandler<Bindings>;
