// What a credential cache would save: a team-scoped `/meta` (rate limit + the token's own registry
// object + the handoff's access object) against a link-scoped `/meta` on the same server
// (rate limit + access object). The difference is the credential lookup, which is all a cache in
// front of the registry objects could remove. Prints the per-request latency both ways (one
// request at a time) and the throughput ratio (8 at a time). Informational: no goal.
// Loopback only; bounded: fixed request counts, and the whole run stops after MAX_SECONDS.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer } from "../scripts/local-server.js";

const ROUNDS = 15;
const SEQUENTIAL_PER_ROUND = 100;
const CONCURRENT_PER_ROUND = 300;
const CONCURRENCY = 8;
const MAX_SECONDS = 240;
const READ_TOKEN = randomBytes(32).toString("base64url");

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function get(url, headers) {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
}

/** Median latency in ms of `count` requests, one at a time. */
async function latency(url, headers, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await get(url, headers);
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Requests per second, `CONCURRENCY` at a time. */
async function throughput(url, headers, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await get(url, headers);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - start) / 1000);
}

const stateDir = mkdtempSync(join(tmpdir(), "handoff-bench-cred-"));
const adminToken = randomBytes(32).toString("base64url");
const envFile = join(stateDir, "admin.env");
writeFileSync(envFile, `ADMIN_TOKEN=${adminToken}\n`, { mode: 0o600 });
const server = await startLocalServer({ config: "wrangler.bench.toml", persistTo: join(stateDir, "state"), envFiles: [envFile], logLevel: "warn" });
const guard = setTimeout(() => {
  console.error(`worker-credential: stopped after ${MAX_SECONDS} s`);
  server.stop().finally(() => process.exit(1));
}, MAX_SECONDS * 1000);
try {
  const created = await fetch(`${server.url}/v1/admin/teams`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  });
  if (created.status !== 201) throw new Error(`create team: ${created.status} ${await created.text()}`);
  const { token } = await created.json();
  const publish = async (scope, headers) => {
    const res = await fetch(`${server.url}/v1/handoffs?expires_in=3600&scope=${scope}`, { method: "POST", body: "x".repeat(1024), headers: { "Handoff-Read-Token": READ_TOKEN, ...headers } });
    if (res.status !== 201) throw new Error(`publish ${scope}: ${res.status} ${await res.text()}`);
    return (await res.json()).id;
  };
  const teamAuth = { Authorization: `Bearer ${token}` };
  const routes = {
    link: [`${server.url}/v1/handoffs/${await publish("link", {})}/meta`, {}],
    team: [`${server.url}/v1/handoffs/${await publish("team", teamAuth)}/meta`, teamAuth],
  };
  for (const [url, headers] of Object.values(routes)) await throughput(url, headers, 200); // warm-up
  const samples = { linkMs: [], teamMs: [], linkRps: [], teamRps: [] };
  // Interleaved rounds, so load from elsewhere on the machine hits both sides alike.
  for (let round = 0; round < ROUNDS; round++) {
    samples.linkMs.push(await latency(...routes.link, SEQUENTIAL_PER_ROUND));
    samples.teamMs.push(await latency(...routes.team, SEQUENTIAL_PER_ROUND));
    samples.linkRps.push(await throughput(...routes.link, CONCURRENT_PER_ROUND));
    samples.teamRps.push(await throughput(...routes.team, CONCURRENT_PER_ROUND));
  }
  const savings = samples.teamMs.map((team, i) => team - samples.linkMs[i]);
  const ratios = samples.teamRps.map((team, i) => team / samples.linkRps[i]);
  console.log(
    `credential lookup: team /meta ${median(samples.teamMs).toFixed(2)} ms vs link /meta ${median(samples.linkMs).toFixed(2)} ms per request: a cache would save ${median(savings).toFixed(2)} ms (per-round ${Math.min(...savings).toFixed(2)} to ${Math.max(...savings).toFixed(2)})`,
  );
  console.log(
    `  throughput, ${CONCURRENCY} concurrent: team ${median(samples.teamRps).toFixed(0)} req/s / link ${median(samples.linkRps).toFixed(0)} req/s: median ratio ${median(ratios).toFixed(2)}`,
  );
  const inWorker = [];
  for (let round = 0; round < 5; round++) {
    const res = await fetch(`${server.url}/bench/credential-lookups?n=1000`, { headers: teamAuth });
    if (res.status !== 200) throw new Error(`credential-lookups: ${res.status} ${await res.text()}`);
    const { n, ms } = await res.json();
    inWorker.push(ms / n);
  }
  console.log(`  measured inside workerd: one lookup in the token's registry object takes ${median(inWorker).toFixed(3)} ms (median of 5 × 1000 sequential lookups; a cache hit would be ~0)`);
  console.log(`  (${ROUNDS} interleaved rounds; wrangler dev on 127.0.0.1, where a Durable Object call is local: on Cloudflare it is a network hop to the object's location)`);
} finally {
  clearTimeout(guard);
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
