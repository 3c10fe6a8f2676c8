import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { type Host, json, makeHost, startOperatorServer } from "./hosts.js";

// Team links: the operator creates teams with `npm run team` (scripts/team.js) against the test
// server; only tokens of the publisher's team can read a team link.

const BODY = `# Migrate the billing table

## Current state
The migration script runs on staging; production is untouched.

## Next steps
- schedule the production run with the on-call
`;

let server: LocalServer | undefined;
/** `npm run team -- <args> --json` against the test server: its stdout. */
let teamScript: (...args: string[]) => Promise<string>;
let base: string;
let repo: string;

beforeAll(async () => {
  base = tempDir("handoff-e2e-team-");
  // Anonymous publishing stays off here, as on a deployment: a team link needs its team token.
  ({ server, team: teamScript } = await startOperatorServer(base));
  repo = makeRepo(join(base, "repo"), { "README.md": "# Billing\n" });
});

afterAll(async () => {
  await server?.stop();
});

/** `npm run team -- <args>`: the issued token. */
async function team(...args: string[]): Promise<string> {
  const issued = JSON.parse(await teamScript(...args)) as { token: string };
  expect(issued.token).toMatch(/^hdt_/);
  return issued.token;
}

describe("team-scoped links", () => {
  let url: string;
  let id: string;
  let hosts: Record<"publisher" | "teammate" | "outsider" | "otherTeam", Host>;

  beforeAll(async () => {
    const platform = await team("create", "platform");
    const teammateToken = await team("token", "platform");
    const billing = await team("create", "billing");
    hosts = {
      publisher: makeHost(base, "publisher", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TEAM_TOKEN: platform }),
      // Environment tokens are bound to HANDOFF_SERVER: without it they are never sent anywhere.
      teammate: makeHost(base, "teammate", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TEAM_TOKEN: teammateToken }),
      outsider: makeHost(base, "outsider", repo),
      otherTeam: makeHost(base, "other-team", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TEAM_TOKEN: billing }),
    };
  });

  it("publishing with --scope team and the team token works", async () => {
    const run = await hosts.publisher.run(["create", "--publish", "--scope", "team", "--json"], { input: BODY });
    expect(run.code, run.stderr).toBe(0);
    const published = json<{ url: string; id: string; scope: string }>(run);
    expect(published.scope).toBe("team");
    expect(run.stderr).toMatch(/scope: team/);
    // Rough edge 7: a team link is not readable by whoever holds the URL alone, and says so.
    expect(run.stderr).toContain("whoever holds it and a token of your team can read this handoff");
    expect(run.stderr).not.toContain("whoever holds it can read");
    ({ url, id } = published);
  });

  it("a teammate with a token of the same team resumes it", async () => {
    const run = await hosts.teammate.run(["resume", url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("schedule the production run");
  });

  it("a client without a team token gets a clear 401 message", async () => {
    const run = await hosts.outsider.run(["resume", url, "--json"]);
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "unauthorized" } });
    expect(run.stderr).toContain(`no credential for ${server!.url}: this is a team link and no team token was sent`);
    expect(run.stderr).toMatch(/HANDOFF_TEAM_TOKEN/);
    expect(run.stdout).not.toContain("production run");
  });

  it("a client with another team's token gets a clear 403 message", async () => {
    const run = await hosts.otherTeam.run(["resume", url, "--json"]);
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "forbidden" } });
    expect(run.stderr).toMatch(/belongs to another team/);
    expect(run.stdout).not.toContain("production run");
  });

  it("--scope team without a team token is refused before anything is sent", async () => {
    const run = await hosts.outsider.run(["create", "--publish", "--scope", "team", "--server", server!.url], { input: BODY });
    expect(run.code).toBe(3); // a publishing failure: the local file is kept, exit 3 like the others
    expect(run.stderr).toMatch(/--scope team needs a team token/);
    expect(run.stderr).toMatch(/HANDOFF_TEAM_TOKEN/);
    expect(run.stderr).toMatch(/the local handoff is kept: \/.*\.md/);
    expect(run.stderr).toMatch(/then retry: handoff publish '.*' --server .* --scope team/);
  });

  it("a link publish without any token on a server that requires one is a clear 401", async () => {
    const run = await hosts.outsider.run(["create", "--publish", "--server", server!.url, "--json"], { input: BODY });
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "unauthorized" } });
    expect(run.stderr).toMatch(/the local handoff is kept/);
  });

  it("the publisher's published --json shows the team link as active", async () => {
    const run = await hosts.publisher.run(["published", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const entry = json<{ published: { id: string; scope: string; state: string }[] }>(run).published.find((p) => p.id === id);
    expect(entry).toMatchObject({ scope: "team", state: "active" });
  });
});

describe("server units stay on the server (rough edge 6)", () => {
  it("--expires below the server's minimum is said in durations, with a retry that drops it", async () => {
    const host = makeHost(base, "short-expiry", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TEAM_TOKEN: await team("create", "short-expiry") });
    const run = await host.run(["create", "--publish", "--expires", "4m"], { input: BODY });
    // An out-of-range option, as the server judges it: exit 2 (docs/cli.md), the local file kept.
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/--expires 4m is outside what this server allows \(5m to [^)]+\); the local handoff is kept: /);
    expect(run.stderr).not.toMatch(/expires_in|'240'/);
    expect(run.stderr).toMatch(/retry without it \(the server's default\)[^\n]*: handoff publish '[^']+' --server \S+$/m);
  });

  it("a team name that breaks the naming rule names the rule, not the request body", async () => {
    const failed = await teamScript("create", "bad name!").then(
      () => undefined,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(failed, "npm run team -- create 'bad name!' should fail").toBeDefined();
    const said = `${failed!.stdout ?? ""}${failed!.stderr ?? ""}`;
    expect(said).toMatch(/team name: /);
    expect(said).not.toMatch(/the body must be/);
  });
});

describe("npm run team: tokens and revoke", () => {
  it("lists a token by id (never the token) and revokes it by the token: its next publish is a 401", async () => {
    const token = await team("create", "revoked-team");
    const host = makeHost(base, "revoked", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TEAM_TOKEN: token });
    expect((await host.run(["create", "--publish", "--scope", "team"], { input: BODY })).code).toBe(0);

    const listed = await teamScript("tokens");
    expect(listed).not.toContain(token);
    expect((JSON.parse(listed) as { tokens: { team: string | null }[] }).tokens.some((t) => t.team === "revoked-team")).toBe(true);
    await teamScript("revoke", token);

    const run = await host.run(["create", "--publish", "--scope", "team", "--json"], { input: BODY });
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "unauthorized" } });
    expect(JSON.parse(await teamScript("list"))).toMatchObject({ teams: expect.arrayContaining([expect.objectContaining({ name: "revoked-team", tokens: 0 })]) });
  });
});
