// A Durable Object namespace binding that counts what reaches it: every stub made (get,
// getByName) and every call on a stub. It forwards to the real binding, so the objects behind it
// run as usual; the counts are evidence of what a request touched, not a stand-in for it.
export interface CountedNamespace<T extends object> {
  binding: T;
  /** Stubs made plus calls made on them. */
  touches(): number;
  /** Every name asked of `idFromName`, in order: which objects a request chose. */
  names: string[];
}

export function countedNamespace<T extends object>(namespace: T): CountedNamespace<T> {
  let touches = 0;
  const names: string[] = [];
  const countedStub = (stub: object) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          touches++;
          // Reflect.apply: on an RPC stub, `value.apply` would itself be a remote method.
          return Reflect.apply(value, target, args);
        };
      },
    });
  const binding = new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getByName") {
        return (...args: unknown[]) => {
          touches++;
          return countedStub(Reflect.apply(value, target, args) as object);
        };
      }
      if (property === "idFromName") {
        return (...args: unknown[]) => {
          names.push(String(args[0]));
          return Reflect.apply(value, target, args);
        };
      }
      return (...args: unknown[]) => Reflect.apply(value, target, args);
    },
  });
  return { binding, touches: () => touches, names };
}
