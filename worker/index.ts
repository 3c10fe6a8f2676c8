import { Hono } from "hono";
import { DurableObject } from "cloudflare:workers";

export type Bindings = {
  BODIES: R2Bucket;
  META: KVNamespace;
  ACCESS: DurableObjectNamespace<HandoffAccess>;
};

export class HandoffAccess extends DurableObject<Bindings> {}

const app = new Hono<{ Bindings: Bindings }>();
app.get("/healthz", (c) => c.json({ ok: true }));

export default app;
