// The worker as the read benchmark runs it (wrangler.bench.toml only, never deployed): the same
// app plus a constant route serving the same 20 KiB from memory through the same middleware, the
// baseline the share read is measured against; and the share read without the rate limiter, to
// show what the limiter costs.
import { createApp } from "./app.js";
import { addBenchClockRoutes } from "./bench-clock.js";
import type { Bindings } from "./bindings.js";
import worker from "./index.js";

// HandoffAccess with the clock-driving methods of bench-clock.ts; the same object otherwise.
export { HandoffAccess } from "./bench-clock.js";
export { HandoffRegistry } from "./index.js";

// Only handlers and Durable Object classes may be exported from a main module.
const BENCH_BODY_BYTES = 20 * 1024;
const constantBody = new Uint8Array(BENCH_BODY_BYTES).map((_, i) => i % 251);
const NO_LIMITER_PREFIX = "/bench/no-limiter";
const unlimited: RateLimit = { limit: async () => ({ success: true }) };

const app = createApp();
addBenchClockRoutes(app);
app.get("/bench/constant", (c) =>
  c.body(constantBody, 200, { "Content-Type": "application/octet-stream", "Content-Length": String(BENCH_BODY_BYTES) }),
);

import { accessFor } from "./storage/durable-objects.js";
import { getBody } from "./storage/bodies-r2.js";
app.get("/bench/do/:id", async (c) => { const d = await accessFor(c.env, c.req.param("id")).consumeView(null); return c.body(constantBody, d.ok ? 200 : 500); });
app.get("/bench/peek/:id", async (c) => { const d = await accessFor(c.env, c.req.param("id")).peek(null); return c.body(constantBody, d.ok ? 200 : 500); });
app.get("/bench/r2/:id", async (c) => { const o = await getBody(c.env.BODIES, c.req.param("id")); return new Response(o!.body, {headers: {"Content-Length": String(o!.size)}}); });
app.get("/bench/limit", async (c) => { await c.env.READ_LIMITER.limit({ key: "x" }); return c.body(constantBody); });
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
