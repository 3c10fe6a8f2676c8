// Counts what the worker asks of its bindings by wrapping the real ones (real R2, KV and Durable
// Objects in workerd underneath; every call goes through). Billing classes follow Cloudflare's
// pricing pages (docs/scale.md): R2 put/list are class A, get/head class B, delete is free; a DO
// request is one RPC call on a stub (each call is its own billed session) or one alarm.
import { runInDurableObject } from "cloudflare:test";
import type { Bindings } from "../../worker/bindings.js";

export const COLUMNS = ["do_requests", "r2_class_a", "r2_class_b", "r2_deletes", "kv_reads", "kv_writes", "kv_lists", "kv_deletes"] as const;
export type Column = (typeof COLUMNS)[number];
export type Counts = Record<Column, number>;

export class Ledger {
  counts: Counts = Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Counts;
  /** What was touched, `op key` per call: R2 and KV keys, `do.method(name)` for objects. */
  touched: string[] = [];

  add(column: Column, what: string, n = 1): void {
    this.counts[column] += n;
    this.touched.push(`${column} ${what}`);
  }

  reset(): void {
    for (const c of COLUMNS) this.counts[c] = 0;
    this.touched = [];
  }
}

function wrapR2(bucket: R2Bucket, ledger: Ledger): R2Bucket {
  return new Proxy(bucket, {
    get(target, prop) {
      const real = Reflect.get(target, prop, target);
      if (typeof real !== "function") return real;
      return (...args: unknown[]) => {
        const key = String(args[0] && typeof args[0] === "object" && !Array.isArray(args[0]) ? ((args[0] as R2ListOptions).prefix ?? "") : args[0]);
        if (prop === "put" || prop === "createMultipartUpload" || prop === "list") ledger.add("r2_class_a", `${String(prop)} ${key}`);
        else if (prop === "get" || prop === "head") ledger.add("r2_class_b", `${String(prop)} ${key}`);
        else if (prop === "delete") {
          const keys = Array.isArray(args[0]) ? (args[0] as string[]) : [String(args[0])];
          for (const k of keys) ledger.add("r2_deletes", `delete ${k}`);
        }
        return real.apply(target, args);
      };
    },
  });
}

function wrapKv(kv: KVNamespace, ledger: Ledger): KVNamespace {
  const columnOf: Record<string, Column> = { get: "kv_reads", getWithMetadata: "kv_reads", put: "kv_writes", list: "kv_lists", delete: "kv_deletes" };
  return new Proxy(kv, {
    get(target, prop) {
      const real = Reflect.get(target, prop, target);
      if (typeof real !== "function") return real;
      return (...args: unknown[]) => {
        const column = columnOf[String(prop)];
        const key = prop === "list" ? String((args[0] as KVNamespaceListOptions | undefined)?.prefix ?? "") : String(args[0]);
        if (column) ledger.add(column, `${String(prop)} ${key}`);
        return real.apply(target, args);
      };
    },
  });
}

function wrapNamespace<T extends DurableObjectNamespace<any>>(namespace: T, label: string, ledger: Ledger): T {
  const names = new Map<string, string>();
  return new Proxy(namespace, {
    get(target, prop) {
      const real = Reflect.get(target, prop, target);
      if (typeof real !== "function") return real;
      if (prop === "idFromName") {
        return (name: string) => {
          const id = real.call(target, name) as DurableObjectId;
          names.set(id.toString(), name);
          return id;
        };
      }
      if (prop !== "get") return real.bind(target);
      return (id: DurableObjectId, options?: unknown) => {
        const stub = real.call(target, id, options);
        const name = names.get(id.toString()) ?? id.toString();
        return new Proxy(stub, {
          get(stubTarget, method) {
            if (typeof method === "symbol" || method === "then" || method === "id" || method === "name") return Reflect.get(stubTarget, method);
            return (...args: unknown[]) => {
              ledger.add("do_requests", `${label}.${method}(${name})`);
              // Called as a property of the real stub: an RPC method only exists as one.
              return (stubTarget as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args);
            };
          },
        });
      };
    },
  }) as T;
}

/** `env` with BODIES, META, ACCESS and REGISTRY counted into `ledger`; everything else as is. */
export function countingEnv(env: Bindings, ledger: Ledger): Bindings {
  return {
    ...env,
    BODIES: wrapR2(env.BODIES, ledger),
    META: wrapKv(env.META, ledger),
    ACCESS: wrapNamespace(env.ACCESS, "access", ledger),
    REGISTRY: wrapNamespace(env.REGISTRY, "registry", ledger),
  };
}

const ORIGINAL_ENV = Symbol("original env");

/**
 * Makes one Durable Object count what it asks of R2 and KV (its purge and reclaim run inside the
 * object, with the object's own `env`). The object stays counted until `ledger` is dropped.
 */
export async function countInside(stub: DurableObjectStub, ledger: Ledger): Promise<void> {
  await runInDurableObject(stub, (instance: object) => {
    const holder = instance as { env: Bindings; [ORIGINAL_ENV]?: Bindings };
    holder[ORIGINAL_ENV] ??= holder.env;
    holder.env = countingEnv(holder[ORIGINAL_ENV], ledger);
  });
}
