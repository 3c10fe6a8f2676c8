import { describe, expect, it } from "vitest";
import { issuedTokenSchema, teamListSchema } from "../../shared/api/admin.js";
import { teamListingSchema } from "../../shared/api/handoff.js";
import { newToken } from "../../shared/ids/tokens.js";
import { ADMIN_TOKEN, call, createTeam, errorCode, publish } from "./helpers.js";

// Malformed and wrong credentials of every shape: each must be a 401 or 403, never a 500.
const BAD_HEADERS: Array<[string, string]> = [
  ["empty bearer", "Bearer "],
  ["no scheme", "hdo_AAAA"],
  ["basic scheme", "Basic dXNlcjpwYXNz"],
  ["wrong length", "Bearer hdo_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ["too long", `Bearer hdo_${"A".repeat(400)}`],
  ["non-base64url", "Bearer hdo_!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"],
  ["non-canonical", `Bearer hdo_${"A".repeat(42)}B`],
  ["percent-encoded", "Bearer hdo_%C3%84%C3%96"],
  ["two tokens", "Bearer a b"],
  ["wrong kind (team token for revoke)", `Bearer ${newToken("team")}`],
];

describe("revoking needs the owner token", () => {
  it.each(BAD_HEADERS)("401 with %s", async (_label, header) => {
    const published = await publish("x");
    const res = await call(`/v1/handoffs/${published.id}`, { method: "DELETE", headers: { Authorization: header } });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe("unauthorized");
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(200);
  });

  it("401 without a header", async () => {
    const published = await publish("x");
    expect((await call(`/v1/handoffs/${published.id}`, { method: "DELETE" })).status).toBe(401);
  });

  it("403 with another handoff's owner token, and the handoff stays readable", async () => {
    const [mine, theirs] = [await publish("x"), await publish("y")];
    const res = await call(`/v1/handoffs/${mine.id}`, { method: "DELETE", token: theirs.owner_token });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe("forbidden");
    expect((await call(`/v1/handoffs/${mine.id}`)).status).toBe(200);
  });

  it("404 for an unknown id", async () => {
    const res = await call("/v1/handoffs/AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE", token: newToken("owner") });
    expect(res.status).toBe(404);
  });
});

describe("publishing with credentials", () => {
  const closed = { ALLOW_ANONYMOUS_PUBLISH: "false" };

  it.each(BAD_HEADERS)("401 with %s", async (_label, header) => {
    const res = await call("/v1/handoffs", { method: "POST", body: "x", headers: { Authorization: header }, vars: closed });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe("unauthorized");
  });

  it("401 for a well-formed token the server never issued", async () => {
    for (const token of [newToken("publish"), newToken("team")]) {
      expect((await call("/v1/handoffs", { method: "POST", body: "x", token, vars: closed })).status).toBe(401);
    }
  });

  it("a publish token from the operator publishes link scope, but not team scope", async () => {
    const res = await call("/v1/admin/publish-tokens", { method: "POST", token: ADMIN_TOKEN });
    expect(res.status).toBe(201);
    const issued = issuedTokenSchema.parse(await res.json());
    expect(issued).toMatchObject({ kind: "publish", team: null });
    await publish("x", "", { token: issued.token, vars: closed });
    const team = await call("/v1/handoffs?scope=team", { method: "POST", body: "x", token: issued.token, vars: closed });
    expect(team.status).toBe(403);
  });

  it("scope=team without a token is 401 even where anonymous publishing is on", async () => {
    const res = await call("/v1/handoffs?scope=team", { method: "POST", body: "x" });
    expect(res.status).toBe(401);
  });
});

describe("team scope", () => {
  it("401 without a token, 403 with a wrong team's token, 200 with the right team's", async () => {
    const red = await createTeam("red");
    const blue = await createTeam("blue");
    const published = await publish("team secret", "scope=team&max_views=10", { token: red });
    expect(published.scope).toBe("team");
    const cases: Array<[string | undefined, number, string | null]> = [
      [undefined, 401, "unauthorized"],
      [newToken("team"), 401, "unauthorized"],
      ["garbage", 401, "unauthorized"],
      [blue, 403, "forbidden"],
      [red, 200, null],
    ];
    for (const [token, status, code] of cases) {
      for (const path of [`/v1/handoffs/${published.id}`, `/v1/handoffs/${published.id}/meta`]) {
        const res = await call(path, token === undefined ? {} : { token });
        expect(res.status, `${path} with ${token?.slice(0, 8)}`).toBe(status);
        if (code) expect(await errorCode(res)).toBe(code);
      }
    }
    // Only the one successful body read counted.
    const meta = (await (await call(`/v1/handoffs/${published.id}/meta`, { token: red })).json()) as { views_used: number };
    expect(meta.views_used).toBe(1);
  });

  it("a second token for the team works at once (strongly consistent)", async () => {
    const first = await createTeam("green");
    const res = await call("/v1/admin/teams/green/tokens", { method: "POST", token: ADMIN_TOKEN });
    expect(res.status).toBe(201);
    const second = issuedTokenSchema.parse(await res.json()).token;
    const published = await publish("x", "scope=team", { token: first });
    expect((await call(`/v1/handoffs/${published.id}`, { token: second })).status).toBe(200);
  });

  it("a link-scoped read ignores a stray or stale token", async () => {
    const published = await publish("x");
    expect((await call(`/v1/handoffs/${published.id}`, { token: newToken("team") })).status).toBe(200);
  });

  it("lists the team's live handoffs, newest first, and only the team's", async () => {
    const token = await createTeam("listing");
    const other = await createTeam("listing-other");
    const a = await publish("a", "scope=team", { token });
    const b = await publish("bb", "scope=team&max_views=3", { token });
    await publish("c", "scope=team", { token: other });
    await publish("d", "", { token });
    const revoked = await publish("e", "scope=team", { token });
    await call(`/v1/handoffs/${revoked.id}`, { method: "DELETE", token: revoked.owner_token });
    const res = await call("/v1/team/handoffs", { token });
    expect(res.status).toBe(200);
    const listing = teamListingSchema.parse(await res.json());
    expect(listing.team).toBe("listing");
    expect(new Set(listing.handoffs.map((h) => h.id))).toEqual(new Set([a.id, b.id]));
    expect(listing.handoffs.find((h) => h.id === b.id)).toMatchObject({ size: 2, max_views: 3, url: `/h/${b.id}` });
    const created = listing.handoffs.map((h) => h.created_at);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it("listing: 401 without a token, 401 with an unknown one, 403 with a publish token", async () => {
    expect((await call("/v1/team/handoffs")).status).toBe(401);
    expect((await call("/v1/team/handoffs", { token: newToken("team") })).status).toBe(401);
    const issued = issuedTokenSchema.parse(await (await call("/v1/admin/publish-tokens", { method: "POST", token: ADMIN_TOKEN })).json());
    expect((await call("/v1/team/handoffs", { token: issued.token })).status).toBe(403);
  });
});

describe("operator API", () => {
  it("creates a team once, lists it with its token count, refuses a duplicate name and a bad one", async () => {
    await createTeam("ops");
    const duplicate = await call("/v1/admin/teams", { method: "POST", token: ADMIN_TOKEN, body: JSON.stringify({ name: "ops" }) });
    expect(duplicate.status).toBe(400);
    for (const body of [JSON.stringify({ name: "Bad Name" }), "not json", JSON.stringify({ name: "x", extra: 1 })]) {
      const res = await call("/v1/admin/teams", { method: "POST", token: ADMIN_TOKEN, body });
      expect(res.status).toBe(400);
    }
    const teams = teamListSchema.parse(await (await call("/v1/admin/teams", { token: ADMIN_TOKEN })).json());
    expect(teams.teams.find((t) => t.name === "ops")).toMatchObject({ tokens: 1 });
    expect((await call("/v1/admin/teams/nope/tokens", { method: "POST", token: ADMIN_TOKEN })).status).toBe(404);
  });

  it("401 without the operator token, 403 with a wrong one, 403 when no ADMIN_TOKEN is configured", async () => {
    expect((await call("/v1/admin/teams")).status).toBe(401);
    expect((await call("/v1/admin/teams", { token: `${ADMIN_TOKEN}x` })).status).toBe(403);
    const off = await call("/v1/admin/teams", { token: ADMIN_TOKEN, vars: { ADMIN_TOKEN: "" } });
    expect(off.status).toBe(403);
    expect(await errorCode(off)).toBe("forbidden");
  });
});
