/**
 * Stubs for the Durable Object roles: one access authority per handoff; one registry object per
 * credential (named by the token's hash) and one per team. No name here is shared by every
 * request: there is no global instance.
 *
 * Each stub's type comes from the namespace it is given (worker/bindings.ts types `ACCESS` and
 * `REGISTRY` with their classes), so this module names neither the bindings nor the objects and
 * sits below both.
 */

type Branded = Rpc.DurableObjectBranded | undefined;

export function accessFor<T extends Branded>(env: { ACCESS: DurableObjectNamespace<T> }, id: string): DurableObjectStub<T> {
  return env.ACCESS.get(env.ACCESS.idFromName(id));
}

/** The object that decides one credential, chosen by its token's SHA-256 (base64url). */
export function credentialFor<T extends Branded>(env: { REGISTRY: DurableObjectNamespace<T> }, tokenHash: string): DurableObjectStub<T> {
  return env.REGISTRY.get(env.REGISTRY.idFromName(`cred:${tokenHash}`));
}

/** The object that owns one team name. */
export function teamFor<T extends Branded>(env: { REGISTRY: DurableObjectNamespace<T> }, name: string): DurableObjectStub<T> {
  return env.REGISTRY.get(env.REGISTRY.idFromName(`team:${name}`));
}
