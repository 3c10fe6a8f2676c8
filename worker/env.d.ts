// Makes Cloudflare.Env our Bindings: the env a Durable Object gets (`DurableObject`'s default, so
// worker/durable/ never imports bindings.ts, which names its classes) and the test harness's `env`
// and `exports` (from "cloudflare:workers").
import type { Bindings } from "./index";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {}
    interface GlobalProps {
      mainModule: typeof import("./index");
      durableNamespaces: "HandoffAccess" | "HandoffRegistry";
    }
  }
}
