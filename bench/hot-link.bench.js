// One hot link: every read of a link goes to its one Durable Object (that is what makes view
// limits exact), so that object's throughput is the most one link can serve. Measured three ways
// on a local server (wrangler.bench.toml): the object's decision called back to back from the
// worker (serial), the same calls all at once (the object's queue), and end-to-end HTTP reads of
// the link at 16 concurrent clients against the constant 20 KiB route. Local workerd has no
// network between worker and object, so these are upper bounds for one object (docs/scale.md).
// Loopback only; bounded: fixed counts, and the whole run stops after MAX_SECONDS.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer } from "../scripts/local-server.js";
import { READ_TOKEN_HEADERS, throughput } from "./lib/tenants.js";

const CALLS = 300;
const ROUNDS = 3;
const HTTP_REQUESTS = 500;
const CONCURRENCY = 16;
const MAX_SECONDS = 600;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const stateDir = mkdtempSync(join(tmpdir(), "handoff-bench-hot-"));
const server = await startLocalServer({ config: "wrangler.bench.toml", persistTo: stateDir, logLevel: "warn" });
const guard = setTimeout(() => {
  console.error(`hot-link: stopped after ${MAX_SECONDS} s`);
  server.stop().finally(() => process.exit(1));
}, MAX_SECONDS * 1000);
try {
  const body = new Uint8Array(20 * 1024).map((_, i) => (i * 7) % 256);
  const res = await fetch(`${server.url}/v1/handoffs?expires_in=3600`, { method: "POST", body, headers: READ_TOKEN_HEADERS });
  if (res.status !== 201) throw new Error(`publish: ${res.status} ${await res.text()}`);
  const { id } = await res.json();
  const serial = [];
  const concurrent = [];
  const peeks = [];
  for (let round = 0; round < ROUNDS; round++) {
    const hot = await (await fetch(`${server.url}/bench/hot/${id}?n=${CALLS}`, { headers: READ_TOKEN_HEADERS })).json();
    serial.push(hot.serial_per_s);
    concurrent.push(hot.concurrent_per_s);
    peeks.push(hot.peek_serial_per_s);
  }
  const get = (url) => async () => {
    const r = await fetch(url, { headers: READ_TOKEN_HEADERS });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  };
  const reads = [];
  const constants = [];
  for (let round = 0; round < ROUNDS; round++) {
    reads.push(await throughput(HTTP_REQUESTS, CONCURRENCY, get(`${server.url}/v1/handoffs/${id}`)));
    constants.push(await throughput(HTTP_REQUESTS, CONCURRENCY, get(`${server.url}/bench/constant`)));
  }
  const ratio = median(reads.map((r, i) => r / constants[i]));
  console.log(
    `hot link, one Durable Object: ${median(serial).toFixed(0)} counted reads/s back to back, ${median(concurrent).toFixed(0)}/s queued all at once; ${median(peeks).toFixed(0)} peeks/s (no write) back to back (${CALLS} calls each, median of ${ROUNDS})`,
  );
  console.log(
    `  HTTP reads of the one link: ${median(reads).toFixed(0)} req/s / constant route ${median(constants).toFixed(0)} req/s: median ratio ${ratio.toFixed(2)} (${CONCURRENCY} concurrent, wrangler dev on 127.0.0.1)`,
  );
} finally {
  clearTimeout(guard);
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
