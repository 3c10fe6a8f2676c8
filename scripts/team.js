// `npm run team -- <command>`: the operator's tool for teams and tokens (docs/deploy.md).
//
//   create NAME          a new team and its first token
//   token NAME           one more token for team NAME
//   publish-token        a token that may publish link-scoped handoffs
//   list                 teams and how many tokens each has
//   tokens               live team and publish tokens, by id (the token's SHA-256; never the token)
//   revoke ID|TOKEN      revokes a token, given its id or the token itself (hashed here, not sent)
//   admin-token          print a fresh random operator token (for `wrangler secret put ADMIN_TOKEN`)
//
// Options: --server URL (default $HANDOFF_SERVER or http://127.0.0.1:8787), --json.
// The operator token comes from $HANDOFF_ADMIN_TOKEN, else from .wrangler/admin.env, which
// `npm start` writes for the local server. A new token is printed once, on stdout; the server
// keeps only its SHA-256 hash, so store it now.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const USAGE = "usage: npm run team -- create NAME | token NAME | publish-token | list | tokens | revoke ID|TOKEN | admin-token  [--server URL] [--json]";
const TIMEOUT_MS = 10_000;

function fail(message, code = 1) {
  console.error(`team: ${message}`);
  process.exitCode = code;
}

function adminToken(env) {
  if (env.HANDOFF_ADMIN_TOKEN) return env.HANDOFF_ADMIN_TOKEN;
  try {
    const match = /^ADMIN_TOKEN=(.+)$/m.exec(readFileSync(join(root, ".wrangler/admin.env"), "utf8"));
    if (match) return match[1].trim();
  } catch {
    // no local file
  }
  return undefined;
}

async function request(server, token, method, path, body) {
  let res;
  try {
    res = await fetch(new URL(path, server), {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (cause) {
    throw new Error(`cannot reach ${server} (${cause instanceof Error ? cause.message : cause}); is the server running (npm start)?`);
  }
  const text = await res.text();
  if (res.status === 204) return undefined;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${server} answered ${res.status} with something that is not JSON`);
  }
  if (!res.ok) throw new Error(`${json?.error?.message ?? `HTTP ${res.status}`}${json?.error?.hint ? ` (${json.error.hint})` : ""}`);
  return json;
}

/** A token's id: the id itself, or the SHA-256 (base64url) of a token, so the token never leaves this machine. */
function tokenId(text) {
  return /^hd[tp]_/.test(text) ? createHash("sha256").update(text).digest("base64url") : text;
}

function printIssued(issued, asJson) {
  if (typeof issued?.token !== "string") throw new Error("the server's answer has no token");
  if (asJson) return console.log(JSON.stringify(issued, null, 2));
  console.error(issued.team ? `New token for team '${issued.team}' (shown once; the server keeps only its hash):` : "New publish token (shown once; the server keeps only its hash):");
  if (issued.id) console.error(`Its id, to revoke it later: ${issued.id}`);
  if (issued.team) {
    // A token alone gives a member no team key: it travels to them inside an invite.
    console.error(
      "Give it to one member inside an invite (never on a command line): printf '%s' '<token>' | handoff team invite --member <their name> [--new-key for the team's first]; they run 'handoff team join' (docs/cli.md).",
    );
  }
  console.log(issued.token);
}

export async function main(argv, env = process.env) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { server: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    return fail(`${error.message}\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  const [command, name] = positionals;
  if (values.help || !command) return values.help ? console.log(USAGE) : fail(USAGE, 2);
  if (command === "admin-token") return console.log(randomBytes(32).toString("base64url"));

  const server = values.server ?? env.HANDOFF_SERVER ?? "http://127.0.0.1:8787";
  const token = adminToken(env);
  if (!token) return fail("no operator token: set HANDOFF_ADMIN_TOKEN (or run `npm start` once for a local one)", 2);
  const needsName = command === "create" || command === "token";
  if (needsName && !name) return fail(`${command} needs a team name\n${USAGE}`, 2);
  if (command === "revoke" && !name) return fail(`revoke needs a token id (npm run team -- tokens) or the token\n${USAGE}`, 2);
  try {
    if (command === "create") printIssued(await request(server, token, "POST", "/v1/admin/teams", { name }), values.json);
    else if (command === "token") printIssued(await request(server, token, "POST", `/v1/admin/teams/${encodeURIComponent(name)}/tokens`), values.json);
    else if (command === "publish-token") printIssued(await request(server, token, "POST", "/v1/admin/publish-tokens"), values.json);
    else if (command === "list") {
      const list = await request(server, token, "GET", "/v1/admin/teams");
      if (values.json) console.log(JSON.stringify(list, null, 2));
      else for (const team of list.teams ?? []) console.log(`${team.name}\t${team.tokens} token(s)\tcreated ${team.created_at}`);
    } else if (command === "tokens") {
      const list = await request(server, token, "GET", "/v1/admin/tokens");
      if (values.json) console.log(JSON.stringify(list, null, 2));
      else for (const t of list.tokens ?? []) console.log(`${t.id}\t${t.kind}\t${t.team ?? "-"}\tcreated ${t.created_at}`);
    } else if (command === "revoke") {
      await request(server, token, "DELETE", `/v1/admin/tokens/${encodeURIComponent(tokenId(name))}`);
      console.error("Revoked: the token is refused from its next request on.");
    } else return fail(`unknown command '${command}'\n${USAGE}`, 2);
  } catch (error) {
    return fail(error.message, 1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.slice(2));
