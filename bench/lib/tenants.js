// The multi-tenant simulation (docs/scale.md, "Many tenants"): many teams publish handoffs with
// mixed expiries at once against a local `wrangler dev` (wrangler.bench.toml), then the clock is
// driven forward through the bench routes of worker/bench/clock.ts. Returns what it saw; the
// caller asserts (test/e2e/tenants.test.ts) or prints (bench/tenants.bench.js).
// Loopback only, bounded concurrency, every request checked.

import { randomBytes } from "node:crypto";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Mirrors worker/durable/access-state.ts RECLAIM_GRACE_MS and worker/sweep.ts BACKSTOP_DELAY_MS. */
const GRACE = DAY;
const BACKSTOP_DELAY = HOUR;
/** Mixed expiries: five minutes to thirty days. With the clock 3 days on, the first four are over. */
const EXPIRIES = [300, 3_600, 21_600, 86_400, 604_800, 2_592_000];
export const CLOCK_JUMP_MS = 3 * DAY;
/**
 * Key-bound reads: publish and body reads carry a read token derived from the share key. Any 32
 * bytes serve here (the server compares hashes only); a server without key-bound reads ignores it.
 */
export const READ_TOKEN_HEADERS = { "Handoff-Read-Token": randomBytes(32).toString("base64url") };

async function request(url, init = {}, expected = 200) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Runs `task(i)` for i < count with at most `concurrency` at once; resolves to the results in order. */
export async function pool(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return results;
}

/** Requests per second for `count` calls of `task` at `concurrency`. */
export async function throughput(count, concurrency, task) {
  const start = performance.now();
  await pool(count, concurrency, task);
  return count / ((performance.now() - start) / 1000);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function createTeams(url, adminToken, count) {
  const headers = { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" };
  return pool(count, 8, async (i) => {
    const issued = await request(`${url}/v1/admin/teams`, { method: "POST", headers, body: JSON.stringify({ name: `tenant-${i}` }) }, 201);
    return { name: `tenant-${i}`, token: issued.token };
  });
}

function publishOne(url, { token, scope, expiresIn, maxViews }) {
  const query = new URLSearchParams({ expires_in: String(expiresIn), ...(scope === "team" ? { scope } : {}), ...(maxViews ? { max_views: String(maxViews) } : {}) });
  const headers = { ...READ_TOKEN_HEADERS, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  return request(`${url}/v1/handoffs?${query}`, { method: "POST", headers, body: "ciphertext ".repeat(64) }, 201);
}

/**
 * Publishes `handoffs` across `teams` (three in four team-scoped, one in four anonymous link
 * scope), loses one alarm in ten, drives the clock CLOCK_JUMP_MS forward (each object's alarms,
 * then the backstop) and checks every handoff's storage.
 */
export async function simulateRetention({ url, teams, handoffs, concurrency }) {
  const start = Date.now();
  const publishStart = performance.now();
  const published = await pool(handoffs, concurrency, async (i) => {
    const team = i % 4 === 3 ? null : teams[i % teams.length];
    const expiresIn = EXPIRIES[(i * 7 + Math.floor(i / teams.length)) % EXPIRIES.length];
    const answer = await publishOne(url, { token: team?.token, scope: team ? "team" : "link", expiresIn, maxViews: i % 9 === 0 ? 3 : undefined });
    return { id: answer.id, expiresAt: Date.parse(answer.expires_at), team: team?.name ?? null, lostAlarm: i % 10 === 5 };
  });
  const publishPerSecond = handoffs / ((performance.now() - publishStart) / 1000);

  const now = start + CLOCK_JUMP_MS;
  const expired = (h) => h.expiresAt + GRACE <= now;
  const overdueForBackstop = (h) => Math.floor(h.expiresAt / HOUR) * HOUR + HOUR + GRACE + BACKSTOP_DELAY <= now;

  await pool(handoffs, concurrency, async (i) => {
    const h = published[i];
    if (h.lostAlarm) await request(`${url}/bench/clock/lose-alarm/${h.id}`, { method: "POST" });
    else await request(`${url}/bench/clock/alarms/${h.id}?now=${now}`, { method: "POST" });
  });
  const sweep = await request(`${url}/bench/clock/sweep?now=${now}`, { method: "POST" });
  const expectedSweep = published.filter((h) => h.lostAlarm && overdueForBackstop(h)).map((h) => h.id);

  const stored = await pool(handoffs, concurrency, async (i) => {
    const h = published[i];
    const query = new URLSearchParams({ expires_at: String(h.expiresAt), ...(h.team ? { team: h.team } : {}) });
    return request(`${url}/bench/stored/${h.id}?${query}`);
  });
  const leftovers = [];
  const missing = [];
  published.forEach((h, i) => {
    const s = stored[i];
    if (expired(h)) {
      if (s.object_keys !== 0 || s.body || s.marker || s.team_entry) leftovers.push({ id: h.id, ...s });
    } else if (s.object_keys === 0 || !s.body || !s.marker || (h.team !== null && !s.team_entry)) {
      missing.push({ id: h.id, ...s });
    }
  });
  const live = published.filter((h) => !expired(h));
  const census = await request(`${url}/bench/census`);
  return {
    published: handoffs,
    teams: teams.length,
    expired: handoffs - live.length,
    live: live.length,
    liveTeam: live.filter((h) => h.team !== null).length,
    lostAlarms: published.filter((h) => h.lostAlarm).length,
    sweep,
    expectedSweep,
    leftovers,
    missing,
    census,
    publishPerSecond,
  };
}

/**
 * Team publish and team read throughput with every request from one team, against the same
 * number spread over all teams: interleaved rounds, median of each. Reads go to handoffs of the
 * reader's own team, so every read resolves a team credential.
 */
export async function compareTenancy({ url, teams, perRound, rounds, concurrency }) {
  const one = [teams[0]];
  const samples = { publishOne: [], publishMany: [], readOne: [], readMany: [] };
  const publishBatch = async (set) => {
    const made = [];
    const rate = await throughput(perRound, concurrency, async (i) => {
      const team = set[i % set.length];
      const answer = await publishOne(url, { token: team.token, scope: "team", expiresIn: 2_592_000 });
      made.push({ id: answer.id, token: team.token });
    });
    return { rate, made };
  };
  const readBatch = (made) =>
    throughput(perRound, concurrency, async (i) => {
      const h = made[i % made.length];
      const res = await fetch(`${url}/v1/handoffs/${h.id}`, { headers: { ...READ_TOKEN_HEADERS, Authorization: `Bearer ${h.token}` }, signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`read ${h.id}: ${res.status}`);
    });
  for (let round = 0; round < rounds; round++) {
    const a = await publishBatch(one);
    const b = await publishBatch(teams);
    samples.publishOne.push(a.rate);
    samples.publishMany.push(b.rate);
    samples.readOne.push(await readBatch(a.made));
    samples.readMany.push(await readBatch(b.made));
  }
  return {
    publish: { oneTeam: median(samples.publishOne), manyTeams: median(samples.publishMany), ratio: median(samples.publishMany.map((v, i) => v / samples.publishOne[i])) },
    read: { oneTeam: median(samples.readOne), manyTeams: median(samples.readMany), ratio: median(samples.readMany.map((v, i) => v / samples.readOne[i])) },
    rounds,
    perRound,
    concurrency,
  };
}
