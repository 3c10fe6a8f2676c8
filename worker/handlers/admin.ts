import { createTeamRequestSchema, type IssuedToken, type TeamList, teamNameSchema } from "../../shared/api/admin.js";
import { HandoffError } from "../../shared/errors.js";
import { newToken, sha256Base64Url } from "../../shared/tokens.js";
import type { AppContext } from "../bindings.js";
import { requireAdmin } from "../http/auth.js";
import { registryOf } from "../storage/durable-objects.js";

// The route's limiter has counted the request already (app.ts), so guessing is rate limited.
const admitOperator = (c: AppContext) => requireAdmin(c.env, c.req.header("Authorization"));

async function issue(kind: "team" | "publish"): Promise<{ token: string; hash: string }> {
  const token = newToken(kind);
  return { token, hash: await sha256Base64Url(token) };
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
    throw new HandoffError("invalid_document", `the body must be {"name": "<team>"}: ${parsed.error.issues[0]!.message}`);
  }
  const name = parsed.data.name;
  const now = Date.now();
  const { token, hash } = await issue("team");
  if (!(await registryOf(c.env).createTeam(name, hash, now))) {
    throw new HandoffError("invalid_option", `team '${name}' exists`, { hint: `add a token with: npm run team -- token ${name}` });
  }
  const answer: IssuedToken = { kind: "team", team: name, token, created_at: new Date(now).toISOString() };
  return c.json(answer, 201);
}

/** `POST /v1/admin/teams/:name/tokens`: one more token for an existing team. */
export async function addTeamToken(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const name = teamName(c.req.param("name"));
  const now = Date.now();
  const { token, hash } = await issue("team");
  if (!(await registryOf(c.env).addToken(name, hash, now))) throw new HandoffError("not_found", `no team '${name}'`);
  const answer: IssuedToken = { kind: "team", team: name, token, created_at: new Date(now).toISOString() };
  return c.json(answer, 201);
}

/** `POST /v1/admin/publish-tokens`: a token that may publish link-scoped handoffs. */
export async function addPublishToken(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const now = Date.now();
  const { token, hash } = await issue("publish");
  await registryOf(c.env).addToken(null, hash, now);
  const answer: IssuedToken = { kind: "publish", team: null, token, created_at: new Date(now).toISOString() };
  return c.json(answer, 201);
}

/** `GET /v1/admin/teams`: every team and how many tokens it has. */
export async function listTeams(c: AppContext): Promise<Response> {
  await admitOperator(c);
  const teams = await registryOf(c.env).listTeams();
  const answer: TeamList = { teams: teams.map((t) => ({ name: t.name, created_at: new Date(t.created_at).toISOString(), tokens: t.tokens })) };
  return c.json(answer);
}
