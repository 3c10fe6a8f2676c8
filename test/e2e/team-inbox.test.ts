import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { newShareKey } from "../../shared/crypto/key.js";
import { type MemberIdentity, newMemberIdentity, signBytes } from "../../shared/crypto/member-key.js";
import { sealCardContent, sealTeamCard } from "../../shared/crypto/team-card.js";
import { type TeamKey, newTeamKey } from "../../shared/crypto/team-key.js";
import { newHandoffId, newToken } from "../../shared/ids/tokens.js";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { startMcp } from "../helpers/mcp-client.js";
import { filesContaining, type Host, json, makeHost, startOperatorServer } from "./hosts.js";

// The team inbox end to end: an operator, member A and member B, each with their own HOME and
// config, one real server. B finds what A shared by keyword without ever being sent the link.

const TITLE = "Billing ledger cutover to Postgres";
const SUMMARY = "The dual-write is live on staging; production waits for the on-call window";
const BODY = `# Billing ledger cutover

## Current state
Dual-write is live on staging; the backfill finished at 02:10.

## Next steps
- flip the read path behind the ledger_pg flag
`;

let server: LocalServer | undefined;
let teamScript: (...args: string[]) => Promise<string>;
let base: string;
let repo: string;

beforeAll(async () => {
  base = tempDir("handoff-e2e-inbox-");
  ({ server, team: teamScript } = await startOperatorServer(base));
  repo = makeRepo(join(base, "repo"), { "README.md": "# Ledger\n" });
});

afterAll(async () => {
  await server?.stop();
});
const issue = async (...args: string[]) => (JSON.parse(await teamScript(...args)) as { token: string }).token;

interface Candidate {
  id: string;
  title: string | null;
  publisher: string | null;
  resume_command: string;
}
interface TeamDiscovery {
  source: string;
  candidates: Candidate[];
  unreadable: { id: string; card_state: string; problem: string | null }[];
  selected: null;
}
interface TeamList {
  team: string;
  handoffs: { id: string; card_state: string; card: { title?: string } | null; card_problem: string | null; publisher: string | null; signature: { state: string; reason?: string } | null }[];
}

/** A team-scope publish of a card someone sealed by hand, as a member holding `token` can send it. */
async function publishCard(token: string, id: string, card: string): Promise<void> {
  const res = await fetch(`${server!.url}/v1/handoffs?scope=team`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "handoff-read-token": "A".repeat(43), "handoff-id": id, "handoff-team-card": card, "content-type": "application/octet-stream" },
    body: "ciphertext",
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

/** A host's member key for the one server in its config (its name, key pair and introductions). */
const identityOf = (host: Host) => {
  const config = JSON.parse(readFileSync(join(host.env.XDG_CONFIG_HOME!, "handoff", "config.json"), "utf8")) as { servers: Record<string, { team_identity?: MemberIdentity }> };
  const identity = Object.values(config.servers).find((entry) => entry.team_identity)?.team_identity;
  if (!identity) throw new Error(`${host.name} holds no member key`);
  return identity;
};

/** The team key a host seals new entries with (the head of its ring). */
const teamKeyOf = async (host: Host): Promise<TeamKey> => {
  const config = JSON.parse(readFileSync(join(host.env.XDG_CONFIG_HOME!, "handoff", "config.json"), "utf8")) as { servers: Record<string, { team_keys?: TeamKey[] }> };
  const head = Object.values(config.servers).find((entry) => entry.team_keys)?.team_keys?.[0];
  if (!head) throw new Error(`${host.name} holds no team key`);
  return { id: head.id, key: head.key };
};

const ringOf = (host: Host) => {
  const config = JSON.parse(readFileSync(join(host.env.XDG_CONFIG_HOME!, "handoff", "config.json"), "utf8")) as { servers: Record<string, { team_keys?: { key: string }[] }> };
  return Object.values(config.servers)
    .flatMap((entry) => entry.team_keys ?? [])
    .map((k) => k.key);
};

describe("three parties: an operator, member A, member B", () => {
  let operator: Host;
  let memberA: Host;
  let memberB: Host;
  let tokenB: string;
  let published: { id: string; url: string };

  beforeAll(async () => {
    await issue("create", "ledger");
    const tokenA = await issue("token", "ledger");
    tokenB = await issue("token", "ledger");
    // The operator holds no team token: only HANDOFF_SERVER, to make the team's key and invites.
    operator = makeHost(base, "operator", repo, { HANDOFF_SERVER: server!.url });
    memberA = makeHost(base, "member-a", repo, { HANDOFF_PUBLISHER: "ana" });
    memberB = makeHost(base, "member-b", repo);

    // A token invite names the member it gives a member key to (their cards are signed with it).
    const unnamed = await operator.run(["team", "invite", "--new-key"], { input: `${tokenA}\n` });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/handoff team invite --member NAME/);
    const first = await operator.run(["team", "invite", "--new-key", "--member", "ana", "--json"], { input: `${tokenA}\n` });
    expect(first.code, first.stderr).toBe(0);
    const inviteA = json<{ invite: string; new_key: boolean; member: string; inviter_key_created: boolean }>(first);
    expect(inviteA).toMatchObject({ new_key: true, member: "ana", inviter_key_created: true });
    const second = await operator.run(["team", "invite", "--member", "bob"], { input: tokenB });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/a member key for bob introduced by yours/);
    const inviteB = second.stdout.trim();

    for (const [host, invite, name] of [
      [memberA, inviteA.invite, "ana"],
      [memberB, inviteB, "bob"],
    ] as const) {
      const joined = await host.run(["team", "join", "--json"], { input: invite });
      expect(joined.code, joined.stderr).toBe(0);
      expect(json(joined)).toMatchObject({ team: "ledger", token_set: true, server: server!.url, member: name });
      const config = join(host.env.XDG_CONFIG_HOME!, "handoff", "config.json");
      expect(statSync(config).mode & 0o777).toBe(0o600);
    }
    expect(ringOf(memberA)).toEqual(ringOf(memberB));
  });

  it("A publishes to the team; B finds it by keyword, sees its title, and no view is spent", async () => {
    const run = await memberA.run(
      ["create", "--publish", "--scope", "team", "--max-views", "3", "--title", TITLE, "--summary", SUMMARY, "--keyword", "ledger", "--json", "finish the ledger cutover"],
      { input: BODY },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/no team key/);
    published = json<{ id: string; url: string }>(run);

    const found = await memberB.run(["resume", "--team", "postgres", "--json"]);
    expect(found.code, found.stderr).toBe(0);
    const discovery = json<TeamDiscovery>(found);
    expect(discovery).toMatchObject({ source: "team", selected: null });
    expect(discovery.candidates.map((c) => [c.id, c.title, c.publisher])).toEqual([[published.id, TITLE, "ana"]]);
    expect(found.stdout).toContain('"state": "verified"');
    // The share key never shows in a listing.
    expect(found.stdout).not.toContain(published.url.split("#")[1]);

    const listed = await memberB.run(["team"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(TITLE);
    expect(listed.stdout).toContain(`${TITLE}  (from ana)`);
    expect(listed.stdout).toContain(`handoff resume --team ${published.id}`);

    const meta = await memberA.run(["published", "--json"]);
    expect(json<{ published: { id: string; views_left: number | null }[] }>(meta).published.find((p) => p.id === published.id)?.views_left).toBe(3);
  });

  it("B resumes it from the inbox without the link: the view is counted once", async () => {
    const run = await memberB.run(["resume", "--team", published.id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("flip the read path behind the ledger_pg flag");
    expect(run.stderr).toMatch(/2 views left/);
    const meta = await memberA.run(["published", "--json"]);
    expect(json<{ published: { id: string; views_left: number | null }[] }>(meta).published.find((p) => p.id === published.id)?.views_left).toBe(2);
  });

  it("over MCP (the official SDK's client): discover with team finds it by title, orient on team:<id> opens it", async () => {
    const mcp = await startMcp({ cwd: memberB.repo, env: memberB.env, name: "handoff-e2e-team" });
    try {
      const found = (await mcp.call("discover", { team: true, keywords: ["ledger"] })) as { isError?: boolean; structuredContent?: TeamDiscovery };
      expect(found.isError).toBeFalsy();
      expect(found.structuredContent?.candidates.map((c) => [c.id, c.title])).toEqual([[published.id, TITLE]]);
      const oriented = await mcp.call("orient", { source: `team:${published.id}` });
      expect(oriented.isError).toBeFalsy();
      expect(oriented.content.map((c) => c.text ?? "").join("\n")).toContain("flip the read path behind the ledger_pg flag");
      // B's resume above kept the opened link on this machine: reading it again spends no view.
      expect(oriented.structuredContent).toMatchObject({ local_copy: { view_spent: false } });
    } finally {
      await mcp.close();
    }
    const meta = await memberA.run(["published", "--json"]);
    expect(json<{ published: { id: string; views_left: number | null }[] }>(meta).published.find((p) => p.id === published.id)?.views_left).toBe(2);
  });

  it("a non-member's token gets 403 on the link and lists only its own team; an unknown token gets 401", async () => {
    const outsiderToken = await issue("create", "payments");
    const id = published.id;
    const read = await fetch(`${server!.url}/v1/handoffs/${id}/meta`, { headers: { authorization: `Bearer ${outsiderToken}` } });
    expect(read.status).toBe(403);
    const listing = (await (await fetch(`${server!.url}/v1/team/handoffs`, { headers: { authorization: `Bearer ${outsiderToken}` } })).json()) as { team: string; handoffs: unknown[] };
    expect(listing).toEqual({ team: "payments", handoffs: [] });
    expect((await fetch(`${server!.url}/v1/team/handoffs`, { headers: { authorization: `Bearer ${newToken("team")}` } })).status).toBe(401);
    expect((await fetch(`${server!.url}/v1/team/handoffs`)).status).toBe(401);
  });

  it("nothing in the server's persisted state holds the title, the summary, the body, the share key or the team key", () => {
    const state = join(base, "server-state");
    const secrets = {
      title: TITLE,
      summary: SUMMARY,
      body: "flip the read path",
      shareKey: published.url.split("#")[1]!,
      ...Object.fromEntries(ringOf(memberA).map((k, i) => [`teamKey${i}`, k])),
      memberKeyA: identityOf(memberA).secret,
      memberKeyB: identityOf(memberB).secret,
      publisher: "ana",
    };
    expect(Object.keys(secrets).length).toBeGreaterThanOrEqual(8);
    for (const [name, value] of Object.entries(secrets)) expect([name, filesContaining(state, value)]).toEqual([name, []]);
    // The search can find: the team name is stored in the clear.
    expect(filesContaining(state, "ledger").length).toBeGreaterThan(0);
  });

  it("after a rotation new entries use the new key; a member without it lists them as unreadable, then reads both with the ring", async () => {
    const before = await memberA.run(["team", "rotate", "--json"]);
    expect(before.code, before.stderr).toBe(0);
    const rotated = json<{ invite: string; new_key: string; keys: string[] }>(before);
    expect(rotated.keys).toHaveLength(2);
    const run = await memberA.run(["create", "--publish", "--scope", "team", "--title", "Ledger rollback drill", "--keyword", "ledger", "--json", "rehearse the rollback"], { input: BODY });
    expect(run.code, run.stderr).toBe(0);
    const second = json<{ id: string }>(run);

    const old = json<TeamList>(await memberB.run(["team", "--json"]));
    expect(old.handoffs.find((h) => h.id === published.id)).toMatchObject({ card_state: "readable", card: { title: TITLE } });
    expect(old.handoffs.find((h) => h.id === second.id)).toMatchObject({ card_state: "unknown_key", card: null, card_problem: expect.stringContaining(rotated.new_key) });
    const shortlist = await memberB.run(["resume", "--team", "ledger", "--json"]);
    expect(shortlist.code).toBe(0);
    expect(json<TeamDiscovery>(shortlist).unreadable).toEqual([expect.objectContaining({ id: second.id, card_state: "unknown_key" })]);

    const merged = await memberB.run(["team", "join", "--json"], { input: rotated.invite });
    expect(merged.code, merged.stderr).toBe(0);
    expect(json(merged)).toMatchObject({ keys_added: [rotated.new_key], current_key: rotated.new_key, token_set: false });
    const now = json<TeamList>(await memberB.run(["team", "--json"]));
    expect(now.handoffs.map((h) => h.card_state)).toEqual(["readable", "readable"]);
  });

  it("a forged card and a card sealed for another id are listed as unreadable, not errors", async () => {
    const key = await newTeamKey();
    const [intruderKey] = [key];
    const tokenC = await issue("token", "ledger");
    const send = (card: string, id: string) => publishCard(tokenC, id, card);
    const ring = json<TeamList & { ring: string[] }>(await memberB.run(["team", "--json"])).ring;
    // Forged: a card under the team's current key id, with bytes no member sealed.
    const wellFormed = await sealTeamCard({ id: newHandoffId(), shareKey: newShareKey(), card: { created_at: "2026-05-01T10:00:00Z" } }, intruderKey);
    const forgedId = newHandoffId();
    await send(wellFormed.replace(intruderKey.id, ring[0]!), forgedId);
    // Moved: a real card of A's, replayed under another id.
    const listing = (await (await fetch(`${server!.url}/v1/team/handoffs`, { headers: { authorization: `Bearer ${tokenC}` } })).json()) as { handoffs: { id: string; card: string | null }[] };
    const realCard = listing.handoffs.find((h) => h.id === published.id)!.card!;
    const movedId = newHandoffId();
    await send(realCard, movedId);

    const run = await memberB.run(["team", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const entries = json<TeamList>(run).handoffs;
    expect(entries.find((h) => h.id === forgedId)).toMatchObject({ card_state: "unreadable", card_problem: expect.stringMatching(/forged or damaged/) });
    expect(entries.find((h) => h.id === movedId)).toMatchObject({ card_state: "unreadable", card_problem: `the card was sealed for another entry (${published.id}), not this one` });
    const resume = await memberB.run(["resume", "--team", movedId]);
    expect(resume.code).toBe(3);
    expect(resume.stderr).toMatch(/has no card this machine can open: the card was sealed for another entry/);
  });

  it("a forged card (another's name, a key no member introduced, changed after signing, unsigned) is shown as unverified, never as from its publisher", async () => {
    const current = await teamKeyOf(memberB);
    const card = (title: string) => ({ title, keywords: ["hotfix"], created_at: "2026-05-01T10:00:00Z" });
    const signedAs = async (signer: MemberIdentity, id: string, title: string, publisher: string) => {
      const signed = JSON.stringify({ id, share_key: newShareKey(), card: { ...card(title), publisher }, signer: { key: signer.key, intro: signer.intro } });
      return { signed, sig: await signBytes(signer, new TextEncoder().encode(`handoff team card v2\u0000${signed}`)) };
    };
    const bob = identityOf(memberB);
    // 1. Bob signs a card that names ana as its publisher.
    const claimedId = newHandoffId();
    await publishCard(tokenB, claimedId, await sealCardContent({ v: 2, ...(await signedAs(bob, claimedId, "Hotfix claimed by ana", "ana")) }, current));
    // 2. A key no member introduced, calling itself ana.
    const strangerId = newHandoffId();
    await publishCard(tokenB, strangerId, await sealTeamCard({ id: strangerId, shareKey: newShareKey(), card: card("Hotfix, trust me") }, current, await newMemberIdentity("ana")));
    // 3. Ana's own signed card, its title changed afterwards by someone holding the team key.
    const tamperedId = newHandoffId();
    const real = await signedAs(identityOf(memberA), tamperedId, "Rotate the ledger key", "ana");
    await publishCard(tokenB, tamperedId, await sealCardContent({ v: 2, signed: real.signed.replace("Rotate the ledger key", "Run the hotfix script"), sig: real.sig }, current));
    // 4. A card from before signatures, naming ana.
    const unsignedId = newHandoffId();
    await publishCard(tokenB, unsignedId, await sealTeamCard({ id: unsignedId, shareKey: newShareKey(), card: { ...card("Hotfix, unsigned"), publisher: "ana" } }, current));

    const expected: [string, string, string][] = [
      [claimedId, "Hotfix claimed by ana", "wrong_name"],
      [strangerId, "Hotfix, trust me", "unknown_key"],
      [tamperedId, "Run the hotfix script", "bad_signature"],
      [unsignedId, "Hotfix, unsigned", "no_signature"],
    ];
    for (const reader of [memberA, memberB]) {
      const listed = json<TeamList>(await reader.run(["team", "--json"])).handoffs;
      for (const [id, title, reason] of expected) {
        const entry = listed.find((h) => h.id === id)!;
        expect(entry, `${reader.name}: ${title}`).toMatchObject({ card_state: "readable", publisher: null, signature: { state: "unverified", reason } });
        expect(entry.card, title).not.toHaveProperty("publisher");
      }
      // Ana's real card stays hers.
      expect(listed.find((h) => h.id === published.id)).toMatchObject({ publisher: "ana", signature: { state: "verified", signer: "ana" } });
      const human = await reader.run(["team"]);
      expect(human.code, human.stderr).toBe(0);
      const lineOf = (title: string) => human.stdout.split("\n").find((line) => line.includes(title)) ?? "";
      expect(lineOf("Hotfix claimed by ana")).toMatch(
        /\(unverified: it names ana as its publisher, but its key was introduced as bob\)$|\(unverified: it names ana as its publisher, but it is signed with bob's key\)$/,
      );
      expect(lineOf("Hotfix, trust me")).toMatch(/\(unverified: signed by an unknown key\)$/);
      expect(lineOf("Run the hotfix script")).toMatch(/\(unverified: the signature does not match the card: changed after it was signed, or forged\)$/);
      expect(lineOf("Hotfix, unsigned")).toMatch(/\(unverified: no signature\)$/);
      for (const title of ["Hotfix claimed by ana", "Hotfix, trust me", "Run the hotfix script", "Hotfix, unsigned"]) expect(lineOf(title)).not.toMatch(/from ana/);
      expect(human.stderr).toMatch(/4 of them unverified/);
      // The shortlist says so too.
      const shortlist = await reader.run(["resume", "--team", "hotfix"]);
      expect(shortlist.stdout).toMatch(/Hotfix, trust me {2}\(unverified: signed by an unknown key\)/);
      expect(shortlist.stdout).not.toMatch(/Hotfix.*\(from ana\)/);
    }
  });

  it("a malformed invite and a ring with a wrong-length key are clear errors that change nothing", async () => {
    const configPath = join(memberB.env.XDG_CONFIG_HOME!, "handoff", "config.json");
    const before = readFileSync(configPath, "utf8");
    const bad = await memberB.run(["team", "join"], { input: "handoff-invite-v1.bm90IGpzb24" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/the invite is malformed: its content is not JSON/);
    expect(readFileSync(configPath, "utf8")).toBe(before);

    const fresh = makeHost(base, "fresh", repo);
    const none = await fresh.run(["team", "join", "--json"], { input: "" });
    expect(none.code).toBe(1);
    expect(json(none)).toMatchObject({ error: { code: "empty_input" } });

    const broken = JSON.parse(before) as { servers: Record<string, { team_keys: { key: string }[] }> };
    const entry = Object.values(broken.servers)[0]!;
    entry.team_keys[0]!.key = entry.team_keys[0]!.key.slice(1);
    writeFileSync(configPath, JSON.stringify(broken), { mode: 0o600 });
    const damaged = readFileSync(configPath, "utf8");
    const run = await memberB.run(["team"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/team_keys\.0\.key' must be 43 base64url characters \(a 256-bit team key\)/);
    expect(readFileSync(configPath, "utf8")).toBe(damaged);
    writeFileSync(configPath, before, { mode: 0o600 });
  });

  it("a member whose token was revoked can no longer list", async () => {
    await teamScript("revoke", tokenB);
    const run = await memberB.run(["team", "--json"]);
    expect(run.code).toBe(3);
    expect(json(run)).toMatchObject({ error: { code: "unauthorized" } });
    const search = await memberB.run(["resume", "--team", "ledger"]);
    expect(search.code).toBe(3);
  });
});

describe("the owner's view log and revoke --all", () => {
  let owner: Host;
  let reader: Host;
  const links: { id: string; url: string }[] = [];

  beforeAll(async () => {
    const publishToken = await issue("publish-token");
    owner = makeHost(base, "owner", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TOKEN: publishToken });
    reader = makeHost(base, "reader", repo);
    for (const title of ["First log", "Second log"]) {
      const run = await owner.run(["create", "--publish", "--max-views", "5", "--title", title, "--json", "watch the views"], { input: BODY });
      expect(run.code, run.stderr).toBe(0);
      links.push(json<{ id: string; url: string }>(run));
    }
  });

  it("after three reads, published --json shows three view times in order, views used and left, and the state", async () => {
    const start = Math.floor(Date.now() / 60_000) * 60_000;
    for (let i = 0; i < 3; i++) {
      const read = await reader.run(["resume", links[0]!.url, "--json"]);
      expect(read.code, read.stderr).toBe(0);
      // Each read keeps the opened link; removed, the next read is a view again.
      expect((await reader.run(["rm", json<{ local_copy: { path: string } }>(read).local_copy.path])).code).toBe(0);
    }
    const run = await owner.run(["published", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const entry = json<{ published: { id: string; state: string; views_used: number; views_left: number; view_times: string[] }[] }>(run).published.find((p) => p.id === links[0]!.id)!;
    expect(entry).toMatchObject({ state: "active", views_used: 3, views_left: 2 });
    expect(entry.view_times).toHaveLength(3);
    const times = entry.view_times.map(Date.parse);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.every((t) => t >= start && t <= Date.now() && t % 60_000 === 0)).toBe(true);
    const human = await owner.run(["published"]);
    expect(human.stdout).toMatch(/3 of 5 views used, 2 left/);
    expect(human.stdout).toMatch(/last viewed: /);
  });

  it("the view log answers to the owner token only", async () => {
    const res = await fetch(`${server!.url}/v1/handoffs/${links[0]!.id}/views`, { headers: { authorization: `Bearer ${newToken("owner")}` } });
    expect(res.status).toBe(403);
    expect((await fetch(`${server!.url}/v1/handoffs/${links[0]!.id}/views`)).status).toBe(401);
  });

  it("revoke --all refuses without --yes off a terminal, then revokes every live link, reporting each", async () => {
    const refused = await owner.run(["revoke", "--all"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/pass --yes/);
    const run = await owner.run(["revoke", "--all", "--yes", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const result = json<{ links: { id: string; outcome: string }[] }>(run);
    expect(result.links.map((l) => [l.id, l.outcome]).sort()).toEqual(links.map((l) => [l.id, "revoked"]).sort());
    const after = json<{ published: { id: string; state: string }[] }>(await owner.run(["published", "--json"])).published;
    expect(after.map((p) => p.state)).toEqual(["revoked", "revoked"]);
    const read = await reader.run(["resume", links[1]!.url, "--json"]);
    expect(json(read)).toMatchObject({ error: { code: "revoked" } });
    const again = await owner.run(["revoke", "--all", "--yes"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/nothing to revoke/);
  });
});

describe("a passphrase as a second factor", () => {
  let owner: Host;
  let reader: Host;
  let link: { id: string; url: string; passphrase: boolean };
  const PASSPHRASE = "plum orbit 42 staple";
  const viewsUsed = async () => json<{ published: { id: string; views_used: number | null }[] }>(await owner.run(["published", "--json"])).published.find((p) => p.id === link.id)?.views_used;

  beforeAll(async () => {
    owner = makeHost(base, "pass-owner", repo, { HANDOFF_SERVER: server!.url, HANDOFF_TOKEN: await issue("publish-token") });
    reader = makeHost(base, "pass-reader", repo);
    const file = join(base, "pass-owner", "plan.md");
    writeFileSync(file, `## Objective\nFinish the ledger cutover.\n\n${BODY}`);
    const run = await owner.run(["publish", file, "--passphrase", "--max-views", "3", "--json"], { input: `${PASSPHRASE}\n` });
    expect(run.code, run.stderr).toBe(0);
    link = json(run);
    expect(link.passphrase).toBe(true);
    expect(run.stderr).toMatch(/passphrase: required/);
  });

  it("--peek says a passphrase is needed; the link alone gets 'needs a passphrase' and spends no view", async () => {
    const peek = await reader.run(["resume", link.url, "--peek"]);
    expect(peek.code, peek.stderr).toBe(0);
    expect(peek.stdout).toMatch(/needs a passphrase \(no view was spent\)/);
    const alone = await reader.run(["resume", link.url, "--json"]);
    expect(alone.code).toBe(3);
    expect(json(alone)).toMatchObject({ error: { code: "decrypt_failed", message: "this share link needs a passphrase; no view was spent" } });
    expect(alone.stdout).not.toContain("flip the read path");
    expect(await viewsUsed()).toBe(0);
  });

  it("a wrong passphrase is a 422 with no view spent; the right one reads, one view", async () => {
    const wrong = await reader.run(["resume", link.url, "--passphrase", "--json"], { input: "plum orbit 43 staple" });
    expect(wrong.code).toBe(3);
    expect(json(wrong)).toMatchObject({ error: { code: "decrypt_failed", message: expect.stringMatching(/^wrong passphrase: .*\(422\); no view was spent/) } });
    const raw = await fetch(`${server!.url}/v1/handoffs/${link.id}`, { headers: { "handoff-read-token": "A".repeat(43) } });
    expect(raw.status).toBe(422);
    // Two wrong tries so far (the CLI's and this one), counted on the link itself; the link alone,
    // tried above without a passphrase, is not one (docs/api.md, "Wrong passphrases, per link").
    expect(((await raw.json()) as { error: { details: unknown } }).error.details).toEqual({ passphrase: true, wrong_passphrases: 2, slow_after: 5, lock_after: 20 });
    expect(await viewsUsed()).toBe(0);
    const listed = json<{ published: { id: string; passphrase: { wrong_passphrases: number } | null }[] }>(await owner.run(["published", "--json"]));
    expect(listed.published.find((p) => p.id === link.id)?.passphrase?.wrong_passphrases).toBe(2);
    // The owner resets the count; a reader's next try is judged at once.
    const reset = await owner.run(["published", "--unlock", link.id, "--json"]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(json(reset)).toMatchObject({ unlocked: link.id, published: [{ id: link.id, passphrase: { wrong_passphrases: 0, locked_at: null, judge_after: null } }] });

    const right = await reader.run(["resume", link.url, "--passphrase"], { input: PASSPHRASE });
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toContain("flip the read path behind the ledger_pg flag");
    expect(await viewsUsed()).toBe(1);
  });

  it("the persisted state holds neither the passphrase nor the body", () => {
    const state = join(base, "server-state");
    expect(filesContaining(state, PASSPHRASE)).toEqual([]);
  });
});
