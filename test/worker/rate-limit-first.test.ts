// The limiter runs before any credential lookup: failed credentials count against their client,
// and a request the limiter refused never reaches a Durable Object. Evidence: the real
// REGISTRY and ACCESS bindings, wrapped so that every stub and call through them is counted.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newToken } from "../../shared/ids/tokens.js";
import { countedNamespace } from "./counted-bindings.js";
import { call, errorCode, publish } from "./helpers.js";

const PUBLISH_LIMIT = 60;
const READ_LIMIT = 600;
const BAD_REQUESTS = 100;
// wrangler.toml's period for both limiters: a fixed window, so a client's count starts over
// whenever one ends, wherever a test happens to be.
const PERIOD_MS = 60_000;

function countedObjects() {
  const registry = countedNamespace(env.REGISTRY);
  const access = countedNamespace(env.ACCESS);
  return {
    vars: { REGISTRY: registry.binding, ACCESS: access.binding },
    touches: () => registry.touches() + access.touches(),
  };
}

/** `ip` undefined: a fresh address, one the limiter has never counted. */
type Attempt = (ip: string | undefined, vars: ReturnType<typeof countedObjects>["vars"], label: string) => Promise<Response>;
type Limiter = "publish" | "read";

const closed = { ALLOW_ANONYMOUS_PUBLISH: "false" };
const attempts: Record<string, { limiter: Limiter; attempt: Attempt }> = {
  "publish with a made-up publish token": {
    limiter: "publish",
    attempt: (ip, vars, label) => call("/v1/handoffs", { method: "POST", body: "x", token: newToken("publish"), ip, label, vars: { ...closed, ...vars } }),
  },
  "revoke with a made-up owner token": {
    limiter: "publish",
    attempt: (ip, vars, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE", token: newToken("owner"), ip, label, vars }),
  },
  "team listing with a made-up team token": { limiter: "read", attempt: (ip, vars, label) => call("/v1/team/handoffs", { token: newToken("team"), ip, label, vars }) },
  "read with a made-up team token": { limiter: "read", attempt: (ip, vars, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", { token: newToken("team"), ip, label, vars }) },
  "meta with a made-up team token": { limiter: "read", attempt: (ip, vars, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA/meta", { token: newToken("team"), ip, label, vars }) },
};

const limits: Record<Limiter, number> = { publish: PUBLISH_LIMIT, read: READ_LIMIT };

/**
 * A request on each limiter that counts against the client and is answered before any lookup, so
 * it reaches no object: a revoke without an owner token (401), a read of a malformed id (404).
 * Spending an allowance this way costs a few milliseconds; spending it on made-up credentials
 * costs a fresh object per request, and that cost grows with every object the run has made.
 */
const cheapRequests: Record<Limiter, (ip: string, label: string) => Promise<Response>> = {
  publish: (ip, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE", ip, label }),
  read: (ip, label) => call("/v1/handoffs/bad/meta", { ip, label }),
};

/** The window boundaries a fixed window of PERIOD_MS can have crossed since `since`. */
const rolloversSince = (since: number) => Math.floor((Date.now() - since) / PERIOD_MS) + 1;

/** Spends `ip`'s allowance on `limiter` with requests that reach no object, until one is refused. */
async function spendAllowance(limiter: Limiter, ip: string, label: string): Promise<void> {
  // One rollover during the spending at most doubles what it takes.
  const bound = 2 * limits[limiter] + 1;
  for (let i = 0; i < bound; i++) if ((await cheapRequests[limiter](ip, `${label}, spending ${ip}'s allowance #${i}`)).status === 429) return;
  throw new Error(`${bound} ${limiter}-limited requests from ${ip} and none refused: the limiter does not count them`);
}

/** One attempt, with the Durable Object stubs and calls it made. */
async function counted(name: string, ip: string | undefined, label: string) {
  const objects = countedObjects();
  const res = await attempts[name]!.attempt(ip, objects.vars, label);
  return { res, touched: objects.touches() };
}

function expectLookedUp({ res, touched }: { res: Response; touched: number }): void {
  expect(res.status, "a made-up credential is refused").toBeGreaterThanOrEqual(400);
  expect(res.status, "an admitted attempt").not.toBe(429);
  expect(touched, "an admitted credential is looked up").toBeGreaterThan(0);
}

/**
 * Sends `name` from `ip` until the first one meets 429, checking each request on its own: a
 * refused one touched no Durable Object, an admitted one did. Answers how many were admitted and
 * how many windows the run spanned (a window lets `limit` through; each rollover, `limit` more).
 */
async function untilRefused(name: string, ip: string) {
  const started = Date.now();
  const bound = 2 * limits[attempts[name]!.limiter] + 1;
  for (let admitted = 0; admitted < bound; admitted++) {
    const outcome = await counted(name, ip, `${name} #${admitted}`);
    if (outcome.res.status === 429) {
      expect(await errorCode(outcome.res)).toBe("rate_limited");
      expect(outcome.touched, "a refused request reached a Durable Object").toBe(0);
      return { admitted, windows: rolloversSince(started) + 1 };
    }
    expectLookedUp(outcome);
  }
  throw new Error(`${bound} attempts of ${name} from ${ip} and none refused`);
}

/**
 * `count` attempts of `name` from a client whose allowance is spent, each one met by 429 and
 * touching no object. The allowance goes on requests that reach no object; a control attempt from
 * a fresh client shows that an admitted attempt of this kind does reach one, so a refusal's zero
 * is the limiter's doing. An attempt admitted after the spending is a window rollover (the client
 * has a fresh allowance): it must still be looked up, the allowance is spent again, and a fixed
 * window explains at most one per period, so a route without its limiter still fails.
 */
async function refusedAttempts(name: string, ip: string, count: number) {
  expectLookedUp(await counted(name, undefined, `${name}, control from a fresh client`));
  const { limiter } = attempts[name]!;
  const started = Date.now();
  let [refused, rollovers] = [0, 0];
  await spendAllowance(limiter, ip, name);
  for (let i = 0; refused < count; i++) {
    const outcome = await counted(name, ip, `${name} #${i}`);
    if (outcome.res.status === 429) {
      expect(await errorCode(outcome.res)).toBe("rate_limited");
      expect(outcome.touched, "a refused request reached a Durable Object").toBe(0);
      refused++;
      continue;
    }
    expectLookedUp(outcome);
    rollovers++;
    expect(rollovers, `${name} was admitted after its client's allowance was spent more often than a window rolls over`).toBeLessThanOrEqual(rolloversSince(started));
    await spendAllowance(limiter, ip, name);
  }
  return refused;
}

describe("rate limits come before any credential lookup", () => {
  it("failed credentials count: made-up publish tokens alone exhaust the publish limit", async () => {
    const { admitted, windows } = await untilRefused("publish with a made-up publish token", "203.0.113.1");
    expect(admitted).toBeGreaterThanOrEqual(PUBLISH_LIMIT);
    expect(admitted).toBeLessThanOrEqual(windows * PUBLISH_LIMIT);
  });

  it("made-up owner tokens exhaust the limit too: revoke has a limiter", async () => {
    const { admitted } = await untilRefused("revoke with a made-up owner token", "203.0.113.2");
    expect(admitted).toBeGreaterThanOrEqual(PUBLISH_LIMIT);
  });

  // No time limit of their own: the project's generous one applies, and a request that hangs
  // names itself through call's deadline first.
  it.each(Object.keys(attempts))("%s: 100 requests over the limit meet 429 and touch no Durable Object", async (name) => {
    const ip = `203.0.113.${10 + Object.keys(attempts).indexOf(name)}`;
    expect(await refusedAttempts(name, ip, BAD_REQUESTS)).toBe(BAD_REQUESTS);
  });

  it("a refused client cannot spend a view: the limiter answers before the access object", async () => {
    const ip = "203.0.113.40";
    const started = Date.now();
    // A window rollover between the spending and the read admits the read (and spends the view):
    // then a fresh handoff and a fresh spending, which a fixed window explains once per period.
    for (let rollovers = 0; ; rollovers++) {
      expect(rollovers, "the read was admitted after the client's allowance was spent more often than a window rolls over").toBeLessThanOrEqual(rolloversSince(started));
      const published = await publish("x", "max_views=1");
      const objects = countedObjects();
      await spendAllowance("read", ip, "a refused client");
      const res = await call(`/v1/handoffs/${published.id}`, { ip, vars: objects.vars, label: "the refused client's read" });
      if (res.status === 200) continue;
      expect(res.status).toBe(429);
      expect(objects.touches()).toBe(0);
      expect((await call(`/v1/handoffs/${published.id}/meta`)).status).toBe(200);
      return;
    }
  });
});
