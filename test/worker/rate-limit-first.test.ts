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

function countedObjects() {
  const registry = countedNamespace(env.REGISTRY);
  const access = countedNamespace(env.ACCESS);
  return {
    vars: { REGISTRY: registry.binding, ACCESS: access.binding },
    touches: () => registry.touches() + access.touches(),
  };
}

type Attempt = (ip: string, vars: ReturnType<typeof countedObjects>["vars"], label: string) => Promise<Response>;

const closed = { ALLOW_ANONYMOUS_PUBLISH: "false" };
const attempts: Record<string, Attempt> = {
  "publish with a made-up publish token": (ip, vars, label) => call("/v1/handoffs", { method: "POST", body: "x", token: newToken("publish"), ip, label, vars: { ...closed, ...vars } }),
  "revoke with a made-up owner token": (ip, vars, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE", token: newToken("owner"), ip, label, vars }),
  "team listing with a made-up team token": (ip, vars, label) => call("/v1/team/handoffs", { token: newToken("team"), ip, label, vars }),
  "read with a made-up team token": (ip, vars, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", { token: newToken("team"), ip, label, vars }),
  "meta with a made-up team token": (ip, vars, label) => call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA/meta", { token: newToken("team"), ip, label, vars }),
};

/**
 * Sends `attempt` from `ip` until `refusals` of them met 429, checking each request on its own:
 * a refused one touched no Durable Object, an admitted one did. Bounded: the limiter's fixed
 * window lets at most 2 × limit through before it refuses.
 */
async function untilRefused(name: string, ip: string, limit: number, refusals: number) {
  const attempt = attempts[name]!;
  const objects = countedObjects();
  let [admitted, refused] = [0, 0];
  for (let i = 0; refused < refusals && i < 2 * limit + refusals * 2; i++) {
    const before = objects.touches();
    const res = await attempt(ip, objects.vars, `${name} #${i}`);
    const touched = objects.touches() - before;
    if (res.status === 429) {
      expect(await errorCode(res)).toBe("rate_limited");
      expect(touched, "a refused request reached a Durable Object").toBe(0);
      refused++;
    } else {
      expect(res.status, "a made-up credential is refused").toBeGreaterThanOrEqual(400);
      expect(touched, "an admitted credential is looked up").toBeGreaterThan(0);
      admitted++;
    }
  }
  return { admitted, refused };
}

describe("rate limits come before any credential lookup", () => {
  it("failed credentials count: made-up publish tokens alone exhaust the publish limit", async () => {
    const { admitted, refused } = await untilRefused("publish with a made-up publish token", "203.0.113.1", PUBLISH_LIMIT, 1);
    expect(refused).toBe(1);
    expect(admitted).toBeGreaterThanOrEqual(PUBLISH_LIMIT);
    expect(admitted).toBeLessThanOrEqual(2 * PUBLISH_LIMIT);
  });

  it("made-up owner tokens exhaust the limit too: revoke has a limiter", async () => {
    const { refused } = await untilRefused("revoke with a made-up owner token", "203.0.113.2", PUBLISH_LIMIT, 1);
    expect(refused).toBe(1);
  });

  it.each(Object.keys(attempts))(
    "%s: 100 requests over the limit meet 429 and touch no Durable Object",
    async (label) => {
      const ip = `203.0.113.${10 + Object.keys(attempts).indexOf(label)}`;
      const limit = label.startsWith("publish") || label.startsWith("revoke") ? PUBLISH_LIMIT : READ_LIMIT;
      // The read allowance is large: most of it goes on malformed ids, which reach no object.
      if (limit === READ_LIMIT) for (let i = 0; i < READ_LIMIT - 20; i++) await call("/v1/handoffs/bad/meta", { ip, label: `${label}, spending the allowance #${i}` });
      const { refused } = await untilRefused(label, ip, limit, BAD_REQUESTS);
      expect(refused).toBe(BAD_REQUESTS);
    },
    30_000,
  );

  it("a refused client cannot spend a view: the limiter answers before the access object", async () => {
    const published = await publish("x", "max_views=1");
    const ip = "203.0.113.40";
    const objects = countedObjects();
    // Spend the client's read allowance on malformed ids, which reach no object at all.
    let limited = false;
    for (let i = 0; i <= 2 * READ_LIMIT && !limited; i++) limited = (await call("/v1/handoffs/bad/meta", { ip })).status === 429;
    expect(limited).toBe(true);
    const res = await call(`/v1/handoffs/${published.id}`, { ip, vars: objects.vars });
    expect(res.status).toBe(429);
    expect(objects.touches()).toBe(0);
    expect((await call(`/v1/handoffs/${published.id}/meta`)).status).toBe(200);
  });
});
