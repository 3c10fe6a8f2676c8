// Starts the worker in real workerd with `wrangler dev` on 127.0.0.1 and gives back its URL and a
// stop(). Used by `npm start`, the benchmarks and end-to-end tests. No account, no network: the
// Request.cf download and metrics are off. Quiet: only wrangler's error lines reach stderr (all
// of its output is shown if it fails to start).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// Only a last resort for a runtime that never answers: a failed start shows as wrangler exiting,
// which ends the wait at once, so this can be generous enough for a loaded machine.
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_LINES = 60;
const PORT_ATTEMPTS = 5;

/** A free TCP port on 127.0.0.1 (asked of the OS, then released for wrangler to take). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Fails fast, with a message that says what to do, when `port` on 127.0.0.1 is taken. Checked
 * before wrangler starts: another server on that port could otherwise answer our /healthz.
 */
function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", (error) => {
      const taken = error.code === "EADDRINUSE" || error.code === "EACCES";
      const reason = error.code === "EACCES" ? "needs privileges this user does not have" : "is already in use";
      reject(
        Object.assign(new Error(taken ? `port ${port} on 127.0.0.1 ${reason}: stop what is using it or choose another port` : `cannot listen on 127.0.0.1:${port}: ${error.message}`), {
          code: "port_unavailable",
        }),
      );
    });
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

function isErrorLine(line) {
  return /\bERROR\b|✘|Uncaught|\[error\]/i.test(line);
}

/**
 * @param {import("./local-server.js").LocalServerOptions} [options]
 * @returns {Promise<import("./local-server.js").LocalServer>}
 */
export async function startLocalServer(options = {}) {
  if (options.port !== undefined) {
    await assertPortFree(options.port);
    return startOnce(options, options.port);
  }
  // A port asked of the OS is released before wrangler takes it, so another process (a parallel
  // test file starting its own server) can take it first. Then wrangler exits at once with
  // "Address already in use": try again on fresh ports rather than fail.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, await freePort());
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !/address already in use|EADDRINUSE/i.test(String(error?.message))) throw error;
    }
  }
}

async function startOnce(options, port) {
  const args = [
    createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js"),
    "dev",
    "--config",
    options.config ?? "wrangler.toml",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(options.inspectorPort ?? (await freePort())),
    "--persist-to",
    options.persistTo ?? ".wrangler/state",
    "--log-level",
    options.logLevel ?? "warn",
    "--show-interactive-dev-session=false",
  ];
  for (const file of options.envFiles ?? []) args.push("--env-file", file);
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);

  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true, // its own process group, so stop() ends wrangler and workerd together
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const tail = [];
  let ready = false;
  const collect = (chunk) => {
    for (const line of chunk.toString().split("\n")) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > OUTPUT_TAIL_LINES) tail.shift();
      if (ready && isErrorLine(line)) process.stderr.write(`${line}\n`);
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // A parent that dies without calling stop() (a killed test worker) must not leave a server
  // running: its own process group would otherwise outlive it.
  const killGroupOnExit = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  process.once("exit", killGroupOnExit);
  exited.then(() => process.off("exit", killGroupOnExit));

  const url = `http://127.0.0.1:${port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const signalGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    signalGroup("SIGTERM");
    const timer = setTimeout(() => signalGroup("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
    // workerd may outlive wrangler by a moment; make sure the group is gone.
    signalGroup("SIGKILL");
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? READY_TIMEOUT_MS);
  let exit;
  exited.then((value) => (exit = value));
  while (!ready) {
    if (exit) {
      // workerd may outlive a wrangler that gave up on it.
      await stop();
      throw new Error(`wrangler dev exited (${exit.code ?? exit.signal}) before ${url} was ready:\n${tail.join("\n")}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer ${url}/healthz within ${(options.readyTimeoutMs ?? READY_TIMEOUT_MS) / 1000} s:\n${tail.join("\n")}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      // Ready only while our wrangler is still running: an answer with it gone came from someone else.
      ready = res.ok && !exit;
    } catch {
      // not listening yet
    }
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, stop, exited };
}
