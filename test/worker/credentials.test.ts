// Credentials without a singleton: each token is resolved by the object named by its own hash,
// a revoked token is refused on its next request, and operator listings come from the KV index,
// which no request path reads. Evidence: the real REGISTRY binding, wrapped to record the names
// each request chose and to count what reached it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issuedTokenSchema, teamListSchema, tokenListSchema } from "../../shared/api/admin.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
import { countedNamespace } from "./counted-bindings.js";
import { ADMIN_TOKEN, call, errorCode, publish } from "./helpers.js";

async function issue(path: string, body?: unknown) {
  const res = await call(path, { method: "POST", token: ADMIN_TOKEN, ...(body ? { body: JSON.stringify(body) } : {}) });
  expect(res.status, await res.clone().text()).toBe(201);
  return issuedTokenSchema.parse(await res.json());
}

const closed = { ALLOW_ANONYMOUS_PUBLISH: "false" };

describe("credentials are resolved by the object their own hash names", () => {
  it("three tokens of two teams and a publish token: each check goes to its own object, none to a shared one", async () => {
    const a = await issue("/v1/admin/teams", { name: "shard-a" });
    const a2 = await issue("/v1/admin/teams/shard-a/tokens");
    const b = await issue("/v1/admin/teams", { name: "shard-b" });
    const p = await issue("/v1/admin/publish-tokens");
    const registry = countedNamespace(env.REGISTRY);
    for (const issued of [a, a2, b, p]) {
      await publish("x", issued.kind === "team" ? "scope=team" : "", { token: issued.token, vars: { ...closed, REGISTRY: registry.binding } });
      expect((await call("/v1/team/handoffs", { token: issued.token, vars: { REGISTRY: registry.binding } })).status).toBe(issued.kind === "team" ? 200 : 403);
    }
    const expected = await Promise.all([a, a2, b, p].map(async (issued) => `cred:${await sha256Base64Url(issued.token)}`));
    // A team listing also reads its own team's object (the sealed cards): one per team, none shared.
    expect(new Set(registry.names)).toEqual(new Set([...expected, "team:shard-a", "team:shard-b"]));
    expect(registry.names.filter((name) => name.startsWith("cred:"))).toHaveLength(8);
    expect(registry.names.filter((name) => name.startsWith("team:")).sort()).toEqual(["team:shard-a", "team:shard-a", "team:shard-b"]);
    // The id the operator sees is that hash.
    expect([a, a2, b, p].map((issued) => `cred:${issued.id}`)).toEqual(expected);
  });

  it("a link-scoped read without a token reaches no registry object at all", async () => {
    const published = await publish("x");
    const registry = countedNamespace(env.REGISTRY);
    expect((await call(`/v1/handoffs/${published.id}`, { vars: { REGISTRY: registry.binding } })).status).toBe(200);
    expect(registry.touches()).toBe(0);
  });
});

describe("revoking a token", () => {
  it("is refused on its very next request; the team's other token keeps working", async () => {
    const first = await issue("/v1/admin/teams", { name: "revokers" });
    const second = await issue("/v1/admin/teams/revokers/tokens");
    await publish("x", "scope=team", { token: first.token, vars: closed });

    const res = await call(`/v1/admin/tokens/${first.id}`, { method: "DELETE", token: ADMIN_TOKEN });
    expect(res.status).toBe(204);
    const publishAfter = await call("/v1/handoffs?scope=team", { method: "POST", body: "x", token: first.token, vars: closed });
    expect(publishAfter.status).toBe(401);
    expect(await errorCode(publishAfter)).toBe("unauthorized");
    expect((await call("/v1/team/handoffs", { token: first.token })).status).toBe(401);
    await publish("y", "scope=team", { token: second.token, vars: closed });

    // Again: nothing left to revoke.
    expect((await call(`/v1/admin/tokens/${first.id}`, { method: "DELETE", token: ADMIN_TOKEN })).status).toBe(404);
  });

  it("a team-scoped read with a revoked token is a 401 at once", async () => {
    const issued = await issue("/v1/admin/teams", { name: "readers-revoked" });
    const published = await publish("x", "scope=team", { token: issued.token, vars: closed });
    expect((await call(`/v1/handoffs/${published.id}/meta`, { token: issued.token })).status).toBe(200);
    expect((await call(`/v1/admin/tokens/${issued.id}`, { method: "DELETE", token: ADMIN_TOKEN })).status).toBe(204);
    expect((await call(`/v1/handoffs/${published.id}/meta`, { token: issued.token })).status).toBe(401);
  });

  it("a publish token is revoked the same way; a malformed or unknown id is a 404", async () => {
    const issued = await issue("/v1/admin/publish-tokens");
    expect((await call(`/v1/admin/tokens/${issued.id}`, { method: "DELETE", token: ADMIN_TOKEN })).status).toBe(204);
    expect((await call("/v1/handoffs", { method: "POST", body: "x", token: issued.token, vars: closed })).status).toBe(401);
    for (const id of ["short", "A".repeat(43)]) expect((await call(`/v1/admin/tokens/${id}`, { method: "DELETE", token: ADMIN_TOKEN })).status).toBe(404);
    expect((await call(`/v1/admin/tokens/${"A".repeat(43)}`, { method: "DELETE" })).status).toBe(401);
  });
});

describe("operator listings come from the index, not from the registry objects", () => {
  it("teams with live token counts and tokens by id, without touching a registry object", async () => {
    const first = await issue("/v1/admin/teams", { name: "listed" });
    await issue("/v1/admin/teams/listed/tokens");
    const third = await issue("/v1/admin/teams/listed/tokens");
    await call(`/v1/admin/tokens/${third.id}`, { method: "DELETE", token: ADMIN_TOKEN });
    const publishToken = await issue("/v1/admin/publish-tokens");

    const registry = countedNamespace(env.REGISTRY);
    const teams = teamListSchema.parse(await (await call("/v1/admin/teams", { token: ADMIN_TOKEN, vars: { REGISTRY: registry.binding } })).json());
    const tokens = tokenListSchema.parse(await (await call("/v1/admin/tokens", { token: ADMIN_TOKEN, vars: { REGISTRY: registry.binding } })).json());
    expect(registry.touches()).toBe(0);

    expect(teams.teams.find((t) => t.name === "listed")).toMatchObject({ tokens: 2 });
    const ids = tokens.tokens.map((t) => t.id);
    expect(ids).toContain(first.id);
    expect(ids).toContain(publishToken.id);
    expect(ids).not.toContain(third.id);
    expect(tokens.tokens.find((t) => t.id === first.id)).toMatchObject({ kind: "team", team: "listed" });
    const text = JSON.stringify(tokens);
    for (const issued of [first, third, publishToken]) expect(text).not.toContain(issued.token);
  });
});
