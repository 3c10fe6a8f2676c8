import { createApp } from "./app.js";
import type { Bindings } from "./bindings.js";
import { sweepExpired } from "./sweep.js";

export type { Bindings } from "./bindings.js";
export { HandoffAccess } from "./durable/handoff-access.js";
export { HandoffRegistry } from "./durable/handoff-registry.js";

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(sweepExpired(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Bindings>;
