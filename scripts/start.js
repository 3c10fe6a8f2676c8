// `npm start`: the local publishing server in real workerd (wrangler dev), state persisted under
// .wrangler/state, loopback only, nothing to configure. `npm start -- --port N` picks another port.
// Anonymous publishing is on here (a deployment has it off). The operator token for
// `npm run team` is generated once into .wrangler/admin.env (mode 0600) and passed as a secret.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startLocalServer } from "./local-server.js";

const root = fileURLToPath(new URL("..", import.meta.url));
export const LOCAL_ADMIN_ENV = ".wrangler/admin.env";

/** Creates the local operator token file once; returns its path relative to the repo root. */
export function ensureLocalAdminToken() {
  const path = join(root, LOCAL_ADMIN_ENV);
  if (!existsSync(path)) {
    mkdirSync(join(root, ".wrangler"), { recursive: true, mode: 0o700 });
    writeFileSync(path, `ADMIN_TOKEN=${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  }
  chmodSync(path, 0o600);
  return LOCAL_ADMIN_ENV;
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: "string", default: "8787" } }, strict: true });
  const port = String(values.port);
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    console.error(`npm start: --port must be a number from 1 to 65535, got '${port}'`);
    process.exitCode = 2;
    return;
  }
  const envFile = ensureLocalAdminToken();
  // The banner below is printed only once the server answers /healthz; a taken port or a runtime
  // that cannot start ends here with the reason and exit 3.
  const server = await startLocalServer({
    port: Number(port),
    persistTo: ".wrangler/state",
    envFiles: [envFile],
    vars: { ALLOW_ANONYMOUS_PUBLISH: "true" },
  });
  console.error(`Handoff local server: ${server.url}  (open it in a browser for what it is; state in .wrangler/state; Ctrl-C stops it)`);
  console.error(`Point the CLI at it:  handoff config set server ${server.url}   or, for one shell,   export HANDOFF_SERVER=${server.url}`);
  console.error(`Anonymous publishing is on. Teams: npm run team -- create NAME  (operator token in ${envFile})`);
  let stopping = false;
  server.exited.then(({ code, signal }) => {
    if (stopping) return;
    console.error(`npm start: the local server stopped unexpectedly (${signal ?? `exit ${code}`}); see the messages above`);
    process.exit(3);
  });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.stop().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    const message = error instanceof Error ? error.message : String(error);
    const hint = error?.code === "port_unavailable" ? " (npm start -- --port N)" : "";
    console.error(`npm start: could not start the local server: ${message}${hint}`);
    process.exitCode = 3;
  });
}
