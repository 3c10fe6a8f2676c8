// Many tenants on one local server: 200 teams, 5,000 handoffs with mixed expiries published
// concurrently, the clock driven 3 days forward (each object's alarms, a tenth of them lost, then
// the backstop), every expired body, expiry marker, team entry and object state checked gone and
// every live one checked present; then team publish and read throughput with 1 team against 200.
// Loopback only; bounded: fixed counts, bounded concurrency, the whole run stops after MAX_SECONDS.
// The smaller version runs in `npm test` (test/e2e/tenants.test.ts).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer } from "../scripts/local-server.js";
import { compareTenancy, createTeams, simulateRetention } from "./lib/tenants.js";

const TEAMS = 200;
const HANDOFFS = 5_000;
const CONCURRENCY = 16;
const MAX_SECONDS = 3_000;

const stateDir = mkdtempSync(join(tmpdir(), "handoff-bench-tenants-"));
const adminToken = randomBytes(32).toString("base64url");
const server = await startLocalServer({ config: "wrangler.bench.toml", persistTo: stateDir, logLevel: "warn", vars: { ADMIN_TOKEN: adminToken } });
const guard = setTimeout(() => {
  console.error(`tenants: stopped after ${MAX_SECONDS} s`);
  server.stop().finally(() => process.exit(1));
}, MAX_SECONDS * 1000);
try {
  const began = performance.now();
  const teams = await createTeams(server.url, adminToken, TEAMS);
  const r = await simulateRetention({ url: server.url, teams, handoffs: HANDOFFS, concurrency: CONCURRENCY });
  const sweptOk = JSON.stringify([...r.sweep.ids].sort()) === JSON.stringify([...r.expectedSweep].sort());
  const censusOk = r.census.bodies === r.live && r.census.markers === r.live && r.census.team_entries === r.liveTeam;
  console.log(`tenants: ${r.teams} teams, ${r.published} handoffs published at ${r.publishPerSecond.toFixed(0)}/s (${CONCURRENCY} concurrent)`);
  console.log(`  clock +3 days: ${r.expired} expired, ${r.live} live; ${r.lostAlarms} alarms lost on purpose`);
  console.log(`  expired with anything left (object state, body, marker, team entry): ${r.leftovers.length}; live with anything missing: ${r.missing.length}`);
  console.log(
    `  store after: ${r.census.bodies} bodies, ${r.census.markers} markers, ${r.census.team_entries} team entries (live: ${r.live}, live team: ${r.liveTeam}): ${censusOk ? "exact" : "MISMATCH"}`,
  );
  console.log(
    `  backstop touched ${r.sweep.ids.length} handoffs, exactly the ${r.expectedSweep.length} expired ones whose alarm was lost: ${sweptOk ? "yes" : "NO"} (reclaimed ${r.sweep.reclaimed}, orphans ${r.sweep.orphans})`,
  );
  const t = await compareTenancy({ url: server.url, teams, perRound: 400, rounds: 5, concurrency: CONCURRENCY });
  console.log(`  team publish: 1 team ${t.publish.oneTeam.toFixed(0)}/s, ${TEAMS} teams ${t.publish.manyTeams.toFixed(0)}/s: median ratio ${t.publish.ratio.toFixed(2)}`);
  console.log(`  team read:    1 team ${t.read.oneTeam.toFixed(0)}/s, ${TEAMS} teams ${t.read.manyTeams.toFixed(0)}/s: median ratio ${t.read.ratio.toFixed(2)}`);
  console.log(`  (${t.rounds} interleaved rounds of ${t.perRound} each, ${t.concurrency} concurrent; wrangler dev on 127.0.0.1; ${((performance.now() - began) / 1000).toFixed(0)} s in all)`);
  process.exitCode = r.leftovers.length === 0 && r.missing.length === 0 && sweptOk && censusOk ? 0 : 1;
} finally {
  clearTimeout(guard);
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
