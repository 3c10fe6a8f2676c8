/**
 * Stubs for the Durable Object roles: one access authority per handoff; one registry object per
 * credential (named by the token's hash) and one per team. No name here is shared by every
 * request: there is no global instance.
 */
import type { Bindings } from "../bindings.js";

export function accessFor(env: Bindings, id: string) {
  return env.ACCESS.get(env.ACCESS.idFromName(id));
}

/** The object that decides one credential, chosen by its token's SHA-256 (base64url). */
export function credentialFor(env: Bindings, tokenHash: string) {
  return env.REGISTRY.get(env.REGISTRY.idFromName(`cred:${tokenHash}`));
}

/** The object that owns one team name. */
export function teamFor(env: Bindings, name: string) {
  return env.REGISTRY.get(env.REGISTRY.idFromName(`team:${name}`));
}
