import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTeams, simulateRetention } from "../../bench/lib/tenants.js";
import { type LocalServer, startLocalServer } from "../../scripts/local-server.js";

// The multi-tenant simulation at a size `npm test` can afford (the full 200 teams and 5,000
// handoffs, with throughput figures, is `npm run bench -- tenants`): teams publish concurrently
// against real `wrangler dev`, the clock is driven 3 days on, and every expired handoff's storage
// must be gone while every live one is whole, with the backstop touching only what expired.

let server: LocalServer | undefined;
let stateDir: string;
const adminToken = randomBytes(32).toString("base64url");

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "handoff-e2e-tenants-"));
  server = await startLocalServer({ config: "wrangler.bench.toml", persistTo: stateDir, logLevel: "warn", vars: { ADMIN_TOKEN: adminToken } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
}, 30_000);

describe("many tenants on one server", () => {
  it("12 teams, 150 handoffs, clock +3 days: expired storage is gone, live storage is whole, the backstop touched only lost alarms", async () => {
    const teams = await createTeams(server!.url, adminToken, 12);
    const r = await simulateRetention({ url: server!.url, teams, handoffs: 150, concurrency: 8 });
    expect(r.expired).toBeGreaterThan(50);
    expect(r.live).toBeGreaterThan(25);
    expect(r.leftovers).toEqual([]);
    expect(r.missing).toEqual([]);
    expect(r.census).toEqual({ bodies: r.live, markers: r.live, team_entries: r.liveTeam });
    expect(r.expectedSweep.length).toBeGreaterThan(0);
    expect([...r.sweep.ids].sort()).toEqual([...r.expectedSweep].sort());
    expect(r.sweep.reclaimed).toBe(r.expectedSweep.length);
  }, 180_000);
});
