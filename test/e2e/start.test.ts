import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/local-server.js";
import { tempDir } from "../client/git-repo.js";
import { type CliRun, repoRoot, runMarker, runProgram, runTmpdir } from "../helpers/cli.js";
import { type FakeServer, startFakeServer } from "./hosts.js";

// `npm start` (scripts/start.js) as a user runs it: the banner only once /healthz answers, and a
// clear message with exit 3, never a banner, when the port is taken or workerd cannot start.

const BANNER = "Handoff local server:";
let home: string;
let squatter: FakeServer | undefined;

beforeAll(() => {
  home = tempDir("handoff-e2e-start-");
});

afterAll(async () => {
  await squatter?.close();
});

function start(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runProgram(process.execPath, [join(repoRoot, "scripts", "start.js"), ...args], { cwd: repoRoot, env: { HOME: home, ...env } });
}

describe("npm start", () => {
  it("on a port another server holds (one that even answers /healthz): exit 3, the reason, no banner", async () => {
    squatter = await startFakeServer({ status: 200, body: "ok" });
    const port = new URL(squatter.url).port;
    const run = await start(["--port", port]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(run.stderr).toContain("--port N");
    expect(run.stderr).not.toContain(BANNER);
    // Refused before anything asked the squatter whether it is healthy.
    expect(squatter.requests).toBe(0);
  });

  it("when workerd cannot start: exit 3 with wrangler's reason, no banner", async () => {
    const run = await start(["--port", String(await freePort())], { MINIFLARE_WORKERD_PATH: "/bin/false" });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/npm start: could not start the local server: wrangler dev exited/);
    expect(run.stderr).not.toContain(BANNER);
  });

  it("prints the banner only when /healthz answers, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(repoRoot, "scripts", "start.js"), "--port", String(port)], {
      cwd: repoRoot,
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...runTmpdir(), ...runMarker() },
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      let stderr = "";
      const healthAtBanner = await new Promise<number>((resolve, reject) => {
        child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
          const before = stderr;
          stderr += chunk;
          if (!before.includes(BANNER) && stderr.includes(BANNER)) {
            fetch(`http://127.0.0.1:${port}/healthz`).then((res) => resolve(res.status), reject);
          }
        });
        exited.then((code) => reject(new Error(`npm start exited ${code} before its banner:\n${stderr}`)));
      });
      expect(healthAtBanner).toBe(200);
      expect(stderr).toContain(`${BANNER} http://127.0.0.1:${port}`);
      process.kill(-child.pid!, "SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
});
