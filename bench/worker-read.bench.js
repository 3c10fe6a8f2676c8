// Share read throughput: GET /v1/handoffs/:id (rate limit + Durable Object access check with the
// read token's hash + R2 read of a 20 KiB body) against a constant route returning the same 20 KiB from the same workerd
// (wrangler.bench.toml). Goal: ratio >= 0.5. Also prints the read without the rate limiter.
// Loopback only; bounded: fixed request counts, and the whole run stops after MAX_SECONDS.
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer } from "../scripts/local-server.js";

const BODY_BYTES = 20 * 1024;
const CONCURRENCY = 8;
const REQUESTS_PER_ROUND = 300;
const ROUNDS = 15;
const MAX_SECONDS = 240;
// Any 32 bytes serve as a read token here (the server only compares hashes); every request sends
// it, as the CLI and the share page do, so the baseline pays for the same header.
const READ_TOKEN = { "Handoff-Read-Token": randomBytes(32).toString("base64url") };

async function batch(url, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(url, { headers: READ_TOKEN });
      const body = await res.arrayBuffer();
      if (res.status !== 200 || body.byteLength !== BODY_BYTES) throw new Error(`${url}: ${res.status}, ${body.byteLength} bytes`);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - start) / 1000);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const stateDir = mkdtempSync(join(tmpdir(), "handoff-bench-state-"));
const server = await startLocalServer({ config: "wrangler.bench.toml", persistTo: stateDir, logLevel: "warn" });
const guard = setTimeout(() => {
  console.error(`worker-read: stopped after ${MAX_SECONDS} s`);
  server.stop().finally(() => process.exit(1));
}, MAX_SECONDS * 1000);
try {
  const body = new Uint8Array(BODY_BYTES).map((_, i) => (i * 7) % 256);
  const res = await fetch(`${server.url}/v1/handoffs?expires_in=3600`, { method: "POST", body, headers: READ_TOKEN });
  if (res.status !== 201) throw new Error(`publish: ${res.status} ${await res.text()}`);
  const { id } = await res.json();
  const routes = {
    read: `${server.url}/v1/handoffs/${id}`,
    readNoLimiter: `${server.url}/bench/no-limiter/v1/handoffs/${id}`,
    constant: `${server.url}/bench/constant`,
  };
  for (const url of Object.values(routes)) await batch(url, 200); // warm-up
  const samples = { read: [], readNoLimiter: [], constant: [] };
  // Interleaved rounds, each compared with its own baseline, so load from elsewhere on the
  // machine hits both sides of a ratio alike; the median ratio is reported.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(routes)) samples[name].push(await batch(url, REQUESTS_PER_ROUND));
  }
  const ratios = samples.read.map((read, i) => read / samples.constant[i]);
  const noLimiterRatios = samples.readNoLimiter.map((read, i) => read / samples.constant[i]);
  const ratio = median(ratios);
  const noLimiterRatio = median(noLimiterRatios);
  const [read, constant] = [median(samples.read), median(samples.constant)];
  console.log(
    `share read throughput: ${read.toFixed(0)} req/s / constant 20 KiB route ${constant.toFixed(0)} req/s: median ratio ${ratio.toFixed(2)} (goal >= 0.5: ${ratio >= 0.5 ? "met" : "missed"})`,
  );
  console.log(
    `  without the rate limiter: ${median(samples.readNoLimiter).toFixed(0)} req/s: median ratio ${noLimiterRatio.toFixed(2)} (the limiter's share of a read: ${((1 - ratio / noLimiterRatio) * 100).toFixed(0)}%)`,
  );
  console.log(
    `  (${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND} requests, ${CONCURRENCY} concurrent; per-round ratios ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}; wrangler dev on 127.0.0.1)`,
  );
  process.exitCode = ratio >= 0.5 ? 0 : 1;
} finally {
  clearTimeout(guard);
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
