import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HandoffAccess } from "../../worker/durable/handoff-access.js";
import { accessStub, call, errorCode, publish, sleep, TEST_READ_HASH } from "./helpers.js";

describe("expiry is honoured to the second", () => {
  it("with the clock injected: the last millisecond before expires_at reads, expires_at itself does not", async () => {
    const published = await publish("x", "expires_in=60");
    const expiresAt = Date.parse(published.expires_at);
    const decisions = await runInDurableObject(accessStub(published.id), async (access: HandoffAccess) => [
      await access.peekAt(null, expiresAt - 1),
      await access.consumeViewAt(null, TEST_READ_HASH, expiresAt - 1),
      await access.consumeViewAt(null, TEST_READ_HASH, expiresAt),
      await access.peekAt(null, expiresAt + 1000),
    ]);
    expect(decisions.map((d) => (d.ok ? "ok" : d.reason))).toEqual(["ok", "ok", "expired", "expired"]);
  });

  it("in real time: a link reads until expires_at and answers 410 expired from then on, by the server's own answers", async () => {
    // Ten seconds leave the first reads far from the boundary; the boundary itself is judged per answer, not by a margin.
    const published = await publish("x", "expires_in=10");
    const expiresAt = Date.parse(published.expires_at);
    const first = await timedCall(`/v1/handoffs/${published.id}`);
    const answers = await untilExpired(`/v1/handoffs/${published.id}/meta`);
    for (const answer of [first, ...answers]) {
      // A request that ended before expires_at must have read; one that started at or after it must not.
      if (answer.end < expiresAt) expect(answer).toMatchObject({ status: 200 });
      if (answer.start >= expiresAt) expect(answer).toMatchObject({ status: 410 });
    }
    expect(first.status).toBe(200);
    for (const path of [`/v1/handoffs/${published.id}`, `/v1/handoffs/${published.id}/meta`]) {
      const res = await call(path);
      expect(res.status).toBe(410);
      expect(await errorCode(res)).toBe("expired");
    }
  });

  it("the owner can still revoke an expired link; reads then say revoked", async () => {
    const published = await publish("x", "expires_in=1");
    await untilExpired(`/v1/handoffs/${published.id}/meta`);
    expect((await call(`/v1/handoffs/${published.id}`, { method: "DELETE", token: published.owner_token })).status).toBe(204);
    expect(await errorCode(await call(`/v1/handoffs/${published.id}`))).toBe("revoked");
  });
});

interface TimedAnswer {
  start: number;
  end: number;
  status: number;
}

async function timedCall(path: string): Promise<TimedAnswer> {
  const start = Date.now();
  const res = await call(path);
  await res.body?.cancel();
  return { start, end: Date.now(), status: res.status };
}

/** Asks `path` every 100 ms until the server answers 410 (at most 600 times, a minute): every answer, timed. */
async function untilExpired(path: string): Promise<TimedAnswer[]> {
  const answers: TimedAnswer[] = [];
  for (let i = 0; i < 600; i++) {
    const answer = await timedCall(path);
    answers.push(answer);
    if (answer.status === 410) return answers;
    await sleep(100);
  }
  throw new Error(`${path} still answered ${answers.at(-1)?.status} after 600 requests`);
}
