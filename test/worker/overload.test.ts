import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../worker/bindings.js";
import { onError } from "../../worker/http/errors.js";

// A hot link's reads all go to its one Durable Object; past what that object can queue, the
// runtime throws an error with `overloaded: true` (Cloudflare's documented shape). That must reach
// the reader as 429 with Retry-After, not as a 500 bug.
describe("an overloaded Durable Object", () => {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.get("/overloaded", () => {
    throw Object.assign(new Error("Durable Object is overloaded. Too many requests queued."), { overloaded: true });
  });
  app.get("/broken", () => {
    throw new Error("a bug");
  });

  it("answers 429 rate_limited with Retry-After: 1", async () => {
    const res = await app.request("/overloaded");
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("1");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  it("leaves any other error a 500", async () => {
    expect((await app.request("/broken")).status).toBe(500);
  });
});
