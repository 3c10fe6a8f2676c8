// `npm start`: the local publishing server in real workerd (wrangler dev), state persisted under
// .wrangler/state, loopback only, nothing to configure. `npm start -- --port N` picks another port.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { port: { type: "string", default: "8787" }, ip: { type: "string", default: "127.0.0.1" } },
  strict: false,
});
const port = String(values.port);
const ip = String(values.ip);
if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
  console.error(`npm start: --port must be a number from 1 to 65535, got '${port}'`);
  process.exit(2);
}

const wrangler = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
const url = `http://${ip}:${port}`;
console.error(`Handoff local server starting at ${url} (state in .wrangler/state).`);
console.error(`Point the CLI at it:  export HANDOFF_SERVER=${url}   or   handoff publish FILE --server ${url}`);

const child = spawn(
  process.execPath,
  [wrangler, "dev", "--ip", ip, "--port", port, "--persist-to", ".wrangler/state", "--log-level", "warn", "--show-interactive-dev-session=false"],
  {
    stdio: "inherit",
    // No network here: never try to download the Request.cf sample; miniflare's placeholder serves.
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
