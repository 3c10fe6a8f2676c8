import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { type Server, type Socket, connect, createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { type CliRun, repoRoot, runMarker, runTmpdir } from "../helpers/cli.js";

/**
 * A host in its own network namespace (`ip netns`), joined to this one by a veth pair. The
 * server listens on 127.0.0.1 only and the CLI allows plain http only to loopback, so the share
 * URL's `127.0.0.1:PORT` must mean the server inside the namespace too: a forwarder there
 * listens on its 127.0.0.1:PORT and connects across the veth to a forwarder here, which connects
 * to the server. Only root can do this; `netnsAvailable()` says whether this machine allows it.
 */

export interface Namespace {
  name: string;
  /** This side's veth address, reachable from inside the namespace. */
  hostAddress: string;
  /** Forwards the namespace's 127.0.0.1:port to this namespace's 127.0.0.1:port. */
  forward(port: number): Promise<void>;
  /** Runs the built CLI inside the namespace with a clean env, like runCli. */
  run(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<CliRun>;
  /** Stops the forwarders and deletes the namespace (and with it the veth pair). */
  remove(): Promise<void>;
}

/** Whether `ip netns` works here (root, and a kernel and sandbox that allow it). */
export function netnsAvailable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = `hoff-probe-${process.pid}`;
  try {
    execFileSync("ip", ["netns", "add", probe], { stdio: "ignore" });
    execFileSync("ip", ["netns", "del", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const FORWARDER = `
import { connect, createServer } from "node:net";
const [listenPort, targetHost, targetPort] = process.argv.slice(1).map((v, i) => (i === 1 ? v : Number(v)));
createServer((client) => {
  const upstream = connect(targetPort, targetHost);
  client.pipe(upstream).pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
}).listen(listenPort, "127.0.0.1", () => console.log("ready"));
`;

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Pipes every connection to 127.0.0.1:port here; returns the listening server. */
function hostForwarder(address: string, port: number): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  server.on("close", () => {
    for (const s of sockets) s.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, address, () => resolve(server));
  });
}

export async function createNamespace(): Promise<Namespace> {
  // Names and addresses are machine-wide: derive them from the pid so parallel runs do not collide.
  const tag = process.pid % 100_000;
  const name = `hoff-e2e-${tag}`;
  const [outside, inside] = [`hoff${tag}o`, `hoff${tag}i`];
  const subnet = `10.${200 + (tag % 50)}.${Math.floor(tag / 50) % 256}`;
  const hostAddress = `${subnet}.1`;
  const forwarders: (Server | ChildProcess)[] = [];
  const remove = async () => {
    for (const f of forwarders) {
      if ("kill" in f) f.kill("SIGKILL");
      else await new Promise<void>((resolve) => f.close(() => resolve()));
    }
    try {
      ip("netns", "del", name);
    } catch {
      // never created, or already gone
    }
    try {
      ip("link", "del", outside);
    } catch {
      // went with the namespace
    }
  };
  try {
    ip("netns", "add", name);
    ip("link", "add", outside, "type", "veth", "peer", "name", inside);
    ip("link", "set", inside, "netns", name);
    ip("addr", "add", `${hostAddress}/30`, "dev", outside);
    ip("link", "set", outside, "up");
    ip("-n", name, "addr", "add", `${subnet}.2/30`, "dev", inside);
    ip("-n", name, "link", "set", inside, "up");
    ip("-n", name, "link", "set", "lo", "up");
  } catch (error) {
    await remove();
    throw error;
  }

  return {
    name,
    hostAddress,
    remove,
    async forward(port) {
      forwarders.push(await hostForwarder(hostAddress, port));
      const child = spawn("ip", ["netns", "exec", name, process.execPath, "--input-type=module", "-e", FORWARDER, String(port), hostAddress, String(port)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      forwarders.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.once("data", () => resolve());
        child.once("exit", (code) => reject(new Error(`the forwarder in the namespace exited ${code}`)));
      });
    },
    async run(args, options) {
      const command = ["netns", "exec", name, process.execPath, join(repoRoot, "bin", "handoff.cjs"), ...args];
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...runTmpdir(), FORCE_COLOR: "0", NO_COLOR: "1", ...options.env, ...runMarker() };
      try {
        const { stdout, stderr } = await promisify(execFile)("ip", command, { cwd: options.cwd, env });
        return { stdout, stderr, code: 0 };
      } catch (error) {
        // execFile rejects on a non-zero exit; the run's output and code are on the error.
        const failed = error as { stdout?: string; stderr?: string; code?: unknown };
        if (typeof failed.code !== "number") throw error;
        return { stdout: failed.stdout ?? "", stderr: failed.stderr ?? "", code: failed.code };
      }
    },
  };
}
