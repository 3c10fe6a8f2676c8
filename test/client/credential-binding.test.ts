import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resolvePublishConfig } from "../../client/lib/config.js";
import { publishCiphertext } from "../../client/lib/server-api.js";
import { newShareKey } from "../../shared/crypto/key.js";
import { randomBase64Url } from "../../shared/ids/base64url.js";
import { newHandoffId } from "../../shared/ids/tokens.js";
import { type CaptureServer, type CapturedRequest, everythingSent, startCaptureServer } from "../helpers/capture-server.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";

// Every credential is bound to one server. Two real servers on loopback record what reaches
// them: "home" is the server the credentials belong to, "other" is any server a link names.
// Whatever layer a token comes from (flag, environment, config file of either shape, owner
// tokens in the published store), "other" must never see it, through resume, --peek,
// --url-stdin, revoke, published or publish.

beforeAll(ensureBuilt, 120_000);

// Built at test time: no token-shaped literal sits in the repository.
const token = (prefix: "hdp_" | "hdt_" | "hdo_") => prefix + randomBase64Url(32);
// An id as the server issues it (never a leading '-', which `revoke <id>` would read as a flag).
const id = () => newHandoffId();

let home: CaptureServer;
let other: CaptureServer;
const answer = (request: CapturedRequest) => (request.method === "DELETE" ? { status: 204 } : { status: 401, body: { error: { code: "unauthorized", message: "a token is required" } } });

beforeAll(async () => {
  home = await startCaptureServer(answer);
  other = await startCaptureServer(answer);
});
afterAll(async () => {
  await home?.close();
  await other?.close();
});

let base: string;
let userHome: string;
const secrets: string[] = [];

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "handoff-binding-"));
  userHome = join(base, "home");
  await mkdir(join(userHome, ".config", "handoff", "published"), { recursive: true, mode: 0o700 });
  home.requests.length = 0;
  other.requests.length = 0;
  secrets.length = 0;
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function secret(prefix: "hdp_" | "hdt_" | "hdo_"): string {
  const value = token(prefix);
  secrets.push(value);
  return value;
}

async function putConfig(content: unknown, mode = 0o600): Promise<string> {
  const path = join(userHome, ".config", "handoff", "config.json");
  await writeFile(path, JSON.stringify(content));
  await chmod(path, mode);
  return path;
}

async function putRecord(server: string, recordId: string, scope: "link" | "team" = "link", ownerToken = secret("hdo_")): Promise<void> {
  const record = {
    id: recordId,
    server,
    url_without_key: `${server}/h/${recordId}`,
    owner_token: ownerToken,
    expires_at: "2099-01-01T00:00:00.000Z",
    max_views: 3,
    scope,
    created_at: "2026-01-01T00:00:00.000Z",
    title: "a record",
  };
  await writeFile(join(userHome, ".config", "handoff", "published", `${recordId}.json`), JSON.stringify(record), { mode: 0o600 });
}

const run = (args: string[], env: Record<string, string> = {}, input = "") => runCli(args, { cwd: base, env: { HOME: userHome, ...env }, input });

/** `other` got requests, and none of them carried any secret of this test, in any header, the URL or the body. */
function expectNothingLeakedTo(server: CaptureServer, minRequests = 1): void {
  expect(server.requests.length).toBeGreaterThanOrEqual(minRequests);
  for (const request of server.requests) {
    expect(request.headers.authorization).toBeUndefined();
    for (const value of secrets) expect(everythingSent(request)).not.toContain(value);
  }
}

const share = (server: string, withKey = true) => `${server}/h/${id()}${withKey ? `#${newShareKey()}` : ""}`;

/** The credential layers a machine can hold, all bound to `home`. */
const layers: { name: string; setup: () => Promise<Record<string, string>> }[] = [
  {
    name: "environment tokens bound to HANDOFF_SERVER",
    setup: async () => ({ HANDOFF_SERVER: home.url, HANDOFF_TOKEN: secret("hdp_"), HANDOFF_TEAM_TOKEN: secret("hdt_") }),
  },
  {
    name: "environment tokens without HANDOFF_SERVER (bound to nothing, so never sent)",
    setup: async () => {
      await putConfig({ server: home.url });
      return { HANDOFF_TOKEN: secret("hdp_"), HANDOFF_TEAM_TOKEN: secret("hdt_") };
    },
  },
  {
    name: "a version-1 config file ({server, token, team_token})",
    setup: async () => {
      await putConfig({ server: home.url, token: secret("hdp_"), team_token: secret("hdt_") });
      return {};
    },
  },
  {
    name: "a version-2 config file with several servers",
    setup: async () => {
      await putConfig({
        version: 2,
        default_server: home.url,
        servers: { [home.url]: { token: secret("hdp_"), team_token: secret("hdt_") }, "https://third.example": { team_token: secret("hdt_") } },
      });
      return {};
    },
  },
  {
    name: "the file names home, the environment holds the token (the case the review found)",
    setup: async () => {
      await putConfig({ server: home.url });
      return { HANDOFF_SERVER: home.url, HANDOFF_TEAM_TOKEN: secret("hdt_") };
    },
  },
];

describe.each(layers)("no token reaches a server it is not bound to: $name", ({ setup }) => {
  it("resume '<url>' on another server reads anonymously and says there is no credential for it", async () => {
    const env = await setup();
    const result = await run(["resume", share(other.url)], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`no credential for ${other.url}`);
    expectNothingLeakedTo(other);
    expect(home.requests).toEqual([]);
  });

  it("resume '<url>' --peek on another server", async () => {
    const env = await setup();
    const result = await run(["resume", share(other.url, false), "--peek"], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`no credential for ${other.url}`);
    expectNothingLeakedTo(other);
  });

  it("resume --url-stdin (and with --peek) on another server", async () => {
    const env = await setup();
    expect((await run(["resume", "--url-stdin"], env, `${share(other.url)}\n`)).code).toBe(3);
    expect((await run(["resume", "--url-stdin", "--peek"], env, share(other.url, false))).code).toBe(3);
    expectNothingLeakedTo(other, 2);
  });

  it("publish --server to another server goes without the tokens bound elsewhere", async () => {
    const env = await setup();
    const file = join(base, "h.md");
    await writeFile(file, "# Handoff\n\nObjective: ship it.\n");
    const result = await run(["publish", file, "--server", other.url], env);
    expect(result.code).toBe(3);
    expectNothingLeakedTo(other);
  });

  it("revoke and published: owner and team tokens go to the record's own server only", async () => {
    const env = await setup();
    const mine = id();
    await putRecord(home.url, mine);
    // A record of `other`'s own: its owner token belongs there (the view log answers to it).
    const otherOwner = `hdo_${randomBase64Url(32)}`;
    await putRecord(other.url, id(), "team", otherOwner);
    const revoke = await run(["revoke", `${other.url}/h/${mine}`], env);
    expect(revoke.code).toBe(3);
    expect(revoke.stderr).toMatch(/no owner token for http:\/\/127\.0\.0\.1:\d+ on this machine: you published/);
    expect(other.requests).toEqual([]);
    const listed = await run(["published", "--json"], env);
    expect(listed.code).toBe(0);
    // `published` asks each record's server with that record's owner token, and nothing else.
    expect(other.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${otherOwner}`]);
    for (const request of other.requests) for (const value of secrets) expect(everythingSent(request)).not.toContain(value);
    expect(home.requests.every((r) => r.method !== "DELETE")).toBe(true);
  });
});

describe("the bound server does get its credentials (the checks above can fail)", () => {
  it("resume and --peek send the team token bound to the link's server", async () => {
    const team = secret("hdt_");
    await putConfig({ version: 2, servers: { [home.url]: { team_token: team } } });
    await run(["resume", share(home.url)]);
    await run(["resume", share(home.url, false), "--peek"]);
    expect(home.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${team}`, `Bearer ${team}`]);
  });

  it("environment tokens apply to HANDOFF_SERVER, and revoke sends the owner token to the record's server", async () => {
    const team = secret("hdt_");
    const owner = secret("hdo_");
    const mine = id();
    await putRecord(home.url, mine, "link", owner);
    await run(["resume", share(home.url)], { HANDOFF_SERVER: home.url, HANDOFF_TEAM_TOKEN: team });
    const revoke = await run(["revoke", mine]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(home.requests.map((r) => [r.method, r.headers.authorization])).toEqual([
      ["GET", `Bearer ${team}`],
      ["DELETE", `Bearer ${owner}`],
    ]);
  });
});

describe("flag tokens are bound to --server", () => {
  it("a token given with --server is never handed to a request for another server", async () => {
    const value = secret("hdp_");
    const config = await resolvePublishConfig({ flags: { server: home.url, token: value }, env: {}, home: userHome });
    expect(config.token).toBe(value);
    await expect(publishCiphertext(other.url, new Uint8Array(8), { maxViews: null, scope: "link", readToken: "r".repeat(43), token: { value, server: config.server! } })).rejects.toMatchObject({
      reason: "internal",
    });
    expect(other.requests).toEqual([]);
  });

  it("a flag token without --server is not used, and says why", async () => {
    await putConfig({ server: other.url });
    const config = await resolvePublishConfig({ flags: { token: secret("hdp_") }, env: {}, home: userHome });
    expect(config.server).toBe(other.url);
    expect(config.token).toBeUndefined();
    expect(config.warnings).toEqual([expect.stringContaining("bound to --server, which is not set")]);
  });
});

describe("config warnings are always shown", () => {
  it("a 0644 config holding a token is fixed, and resume says to treat the token as exposed", async () => {
    const path = await putConfig({ version: 2, servers: { [home.url]: { team_token: secret("hdt_") } } }, 0o644);
    const result = await run(["resume", share(other.url)]);
    expect(result.stderr).toMatch(/config\.json was readable by other users \(mode 0?644\); changed it to 0600/);
    expect(result.stderr).toMatch(/treat its tokens as exposed/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});

describe("a loopback alias of the token's server (issue 24, rough edge 8)", () => {
  it("a team token bound to localhost:PORT is not sent to a 127.0.0.1:PORT link, and the CLI says why and what to do", async () => {
    const alias = home.url.replace("127.0.0.1", "localhost");
    expect(alias).not.toBe(home.url);
    const team = secret("hdt_");
    const env = { HANDOFF_SERVER: alias, HANDOFF_TEAM_TOKEN: team };
    for (const args of [
      ["resume", "--url-stdin"],
      ["resume", "--url-stdin", "--peek"],
    ]) {
      const result = await run(args, env, share(home.url, !args.includes("--peek")));
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`not sending the team token bound to ${alias} to ${home.url}: a token goes only to the exact server it is bound to; bind it to ${home.url} too`);
    }
    // The binding still holds: the alias got no token.
    expectNothingLeakedTo(home, 2);
  });
});
