import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("answers /healthz inside workerd", async () => {
  const res = await exports.default.fetch("http://handoff.test/healthz");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
});
