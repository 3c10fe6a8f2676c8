import { createTeamRequestSchema, type IssuedToken, TOKEN_ID, type TeamList, type TokenList, teamNameSchema } from "../../shared/api/admin.js";
import { HandoffError } from "../../shared/errors.js";
import { newToken, sha256Base64Url } from "../../shared/ids/tokens.js";
import type { AppContext } from "../bindings.js";
import { requireAdmin } from "../http/auth.js";
import { credentialFor, teamFor } from "../storage/durable-objects.js";
import { indexTeam, indexToken, listIndexedTeams, listIndexedTokens, unindexToken } from "../storage/operator-index.js";

// The route's limiter has counted the request already (app.ts), so guessing is rate limited.
const admitOperator = (c: AppContext) => requireAdmin(c.env, c.req.header("Authorization"));

/**
 * A fresh token recorded at the object named by its hash, then in the operator index. The
 * object decides (the token works as soon as this returns); the index only lists.
 */
async function issue(c: AppContext, kind: "team" | "publish", team: string | null, now: number): Promise<IssuedToken> {
  const token = newToken(kind);
  const hash = await sha256Base64Url(token);
  if (!(await credentialFor(c.env, hash).issue(kind, team, now))) throw new HandoffError("internal", "a fresh token's hash was already issued");
  await indexToken(c.env.META, hash, { kind, team, created_at: now });
  return { id: hash, kind, team, token, created_at: new Date(now).toISOString() };
}

function teamName(value: unknown): string {
  const parsed = teamNameSchema.safeParse(value);
  if (!parsed.success) throw new HandoffError("invalid_option", parsed.error.issues[0]!.message, { details: { option: "name" } });
  return parsed.data;
}

/** `POST /v1/admin/teams` `{name}`: a new team and its first token (shown once). */
export async function createTeam(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const parsed = createTeamRequestSchema.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A name that breaks the naming rule is the operator's input, not a malformed body: say the rule.
    if (issue.path.length === 1 && issue.path[0] === "name" && issue.code !== "invalid_type") {
      throw new HandoffError("invalid_option", `team name: ${issue.message}`, { hint: "pick a name like 'platform-team'", details: { option: "name" } });
    }
    throw new HandoffError("invalid_document", `the body must be {"name": "<team>"}: ${issue.message}`);
  }
  const name = parsed.data.name;
  const now = Date.now();
  if (!(await teamFor(c.env, name).createTeam(name, now))) {
    throw new HandoffError("invalid_option", `team '${name}' exists`, { hint: `add a token with: npm run team -- token ${name}` });
  }
  const issued = await issue(c, "team", name, now);
  await indexTeam(c.env.META, { v: 2, name, created_at: now, tokens: 1 });
  return c.json(issued, 201);
}

/** `POST /v1/admin/teams/:name/tokens`: one more token for an existing team. */
export async function addTeamToken(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const name = teamName(c.req.param("name"));
  const team = await teamFor(c.env, name).countToken(1);
  if (team === null) throw new HandoffError("not_found", `no team '${name}'`);
  const issued = await issue(c, "team", name, Date.now());
  await indexTeam(c.env.META, team);
  return c.json(issued, 201);
}

/** `POST /v1/admin/publish-tokens`: a token that may publish link-scoped handoffs. */
export async function addPublishToken(c: AppContext): Promise<Response> {
  await admitOperator(c);
  return c.json(await issue(c, "publish", null, Date.now()), 201);
}

/** `DELETE /v1/admin/tokens/:id`: revokes a team or publish token; its next request is a 401. */
export async function revokeToken(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const id = c.req.param("id") ?? "";
  if (!TOKEN_ID.test(id)) throw new HandoffError("not_found", "no live token with this id", { hint: "list ids with: npm run team -- tokens" });
  const revoked = await credentialFor(c.env, id).revoke(Date.now());
  if (revoked === null) throw new HandoffError("not_found", "no live token with this id", { hint: "list ids with: npm run team -- tokens" });
  await unindexToken(c.env.META, id);
  if (revoked.team !== null) {
    const team = await teamFor(c.env, revoked.team).countToken(-1);
    if (team !== null) await indexTeam(c.env.META, team);
  }
  return c.body(null, 204);
}

/** `GET /v1/admin/teams`: every team and how many live tokens it has (from the operator index). */
export async function listTeams(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const teams = await listIndexedTeams(c.env.META);
  const answer: TeamList = { teams: teams.map(([name, t]) => ({ name, created_at: new Date(t.created_at).toISOString(), tokens: t.tokens })) };
  return c.json(answer);
}

/** `GET /v1/admin/tokens`: every live team and publish token by id (from the operator index). */
export async function listTokens(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const tokens = await listIndexedTokens(c.env.META);
  const answer: TokenList = {
    tokens: tokens.map(([id, t]) => ({ id, kind: t.kind, team: t.team, created_at: new Date(t.created_at).toISOString() })),
  };
  return c.json(answer);
}
