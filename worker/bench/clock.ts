// Benchmark-only routes (wrangler.bench.toml, never deployed): drive the retention clock of a
// local server forward and look at what is stored, for bench/tenants.bench.js and its smaller
// test (test/e2e/tenants.test.ts), and time one object for bench/hot-link.bench.js.
import type { Hono } from "hono";
import { READ_TOKEN_HEADER } from "../../shared/crypto/read-token.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
import type { AppEnv } from "../bindings.js";
import { HandoffAccess as ProductionAccess } from "../durable/handoff-access.js";
import { bodyKey } from "../storage/bodies-r2.js";
import { accessFor } from "../storage/durable-objects.js";
import { EXPIRY_PREFIX, expiryMarkerKey } from "../storage/expiry-index.js";
import { TEAM_PREFIX, teamEntryKey } from "../storage/meta-kv.js";
import { sweepExpired } from "../sweep.js";

/** The production object plus what a benchmark needs to drive and inspect it. */
export class HandoffAccess extends ProductionAccess {
  /** Runs this object's alarms as the runtime would if the clock jumped to `now`, in order. */
  async runAlarmsUntil(now: number): Promise<number> {
    let runs = 0;
    for (let at = await this.ctx.storage.getAlarm(); at !== null && at <= now; at = await this.ctx.storage.getAlarm()) {
      await this.alarmAt(at);
      runs++;
    }
    return runs;
  }

  /** Forgets the alarm, as if the runtime lost it: only the backstop can reclaim this one now. */
  async loseAlarm(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
  }

  async storedKeys(): Promise<number> {
    return [...this.ctx.storage.kv.list()].length + ((await this.ctx.storage.getAlarm()) === null ? 0 : 1);
  }
}

const num = (text: string | undefined) => Number(text ?? Number.NaN);

export function addBenchClockRoutes(app: Hono<AppEnv>): void {
  const access = (env: AppEnv["Bindings"], id: string) => accessFor(env, id) as unknown as DurableObjectStub<HandoffAccess>;

  app.post("/bench/clock/alarms/:id", async (c) => c.json({ runs: await access(c.env, c.req.param("id")).runAlarmsUntil(num(c.req.query("now"))) }));
  app.post("/bench/clock/lose-alarm/:id", async (c) => {
    await access(c.env, c.req.param("id")).loseAlarm();
    return c.json({ ok: true });
  });
  app.post("/bench/clock/sweep", async (c) => c.json(await sweepExpired(c.env, num(c.req.query("now")))));

  // What is stored for one handoff: object keys (plus its alarm), body, expiry marker, team entry.
  app.get("/bench/stored/:id", async (c) => {
    const id = c.req.param("id");
    const expiresAt = num(c.req.query("expires_at"));
    const team = c.req.query("team");
    const [objectKeys, body, marker, entry] = await Promise.all([
      access(c.env, id).storedKeys(),
      c.env.BODIES.head(bodyKey(id)),
      c.env.BODIES.head(expiryMarkerKey(id, expiresAt)),
      team ? c.env.META.get(teamEntryKey(team, id)) : null,
    ]);
    return c.json({ object_keys: objectKeys, body: body !== null, marker: marker !== null, team_entry: entry !== null });
  });

  // Totals over the whole store (a full listing: benchmarks only, never a request path).
  app.get("/bench/census", async (c) => {
    const countR2 = async (prefix: string) => {
      let n = 0;
      let cursor: string | undefined;
      do {
        const page = await c.env.BODIES.list({ prefix, cursor, limit: 1000 });
        n += page.objects.length;
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return n;
    };
    let entries = 0;
    let cursor: string | undefined;
    do {
      const page = await c.env.META.list({ prefix: TEAM_PREFIX, cursor, limit: 1000 });
      entries += page.keys.length;
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return c.json({ bodies: await countR2("v1/bodies/"), markers: await countR2(EXPIRY_PREFIX), team_entries: entries });
  });

  // One object timed from the worker: `n` counted reads one after another, `n` at once (the object
  // takes them one at a time either way; the second shows its queue), and `n` peeks (/meta: no
  // write) one after another.
  app.get("/bench/hot/:id", async (c) => {
    const stub = accessFor(c.env, c.req.param("id"));
    const n = num(c.req.query("n"));
    // The reader's proof of the key, as the read handler would pass it on.
    const readHash = await sha256Base64Url(c.req.header(READ_TOKEN_HEADER) ?? "");
    const rate = async (run: () => Promise<unknown>) => {
      const start = performance.now();
      await run();
      return (n / (performance.now() - start)) * 1000;
    };
    const serial = await rate(async () => {
      for (let i = 0; i < n; i++) await stub.consumeView(null, readHash);
    });
    const concurrent = await rate(() => Promise.all(Array.from({ length: n }, () => stub.consumeView(null, readHash))));
    const peeks = await rate(async () => {
      for (let i = 0; i < n; i++) await stub.peek(null);
    });
    return c.json({ n, serial_per_s: serial, concurrent_per_s: concurrent, peek_serial_per_s: peeks });
  });
}
