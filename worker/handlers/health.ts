import type { AppContext } from "../bindings.js";

/** `GET /healthz`: the worker is up (touches no storage). */
export function health(c: AppContext): Response {
  return c.json({ ok: true as const });
}
