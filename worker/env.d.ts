// Types the test harness's `env` and `exports` (from "cloudflare:workers") with our bindings.
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
