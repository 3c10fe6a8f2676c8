/** Stubs for the two Durable Object roles: one access authority per handoff, one registry. */
import type { Bindings } from "../bindings.js";
import { REGISTRY_NAME } from "../durable/handoff-registry.js";

export function accessFor(env: Bindings, id: string) {
  return env.ACCESS.get(env.ACCESS.idFromName(id));
}

export function registryOf(env: Bindings) {
  return env.REGISTRY.get(env.REGISTRY.idFromName(REGISTRY_NAME));
}
