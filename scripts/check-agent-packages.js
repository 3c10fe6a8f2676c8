// Checks the shipped agent integrations with each agent's own CLI, installed from the npm registry
// into a scratch folder (cached: $HANDOFF_AGENT_CLI_CACHE, default ~/.cache/handoff-agent-clis)
// and run with a scratch HOME on a fresh clone of HEAD (so a used clone's node_modules and
// .wrangler never count):
//   Claude Code  `claude plugin validate --strict` on the marketplace and the plugin manifest;
//   Codex        the plugin installed from the clone's marketplace, then the app-server's
//                `hooks/list`: every hook of the plugin listed, with no warning and no error;
//   Gemini CLI   `gemini extensions validate` and `gemini extensions install` of gemini/, then a
//                run of `gemini -p` (with a made-up API key: no model answers) with a `handoff` on PATH that records
//                what Gemini CLI sends it: SessionStart, PreCompress and SessionEnd must arrive.
// An agent whose CLI cannot be installed or run here is skipped with the reason. Not part of
// `npm test` (it needs the registry, and tests talk to loopback only): run it by hand,
// `node scripts/check-agent-packages.js [claude|codex|gemini ...]`. Exits 1 when a check fails.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = process.env.HANDOFF_AGENT_CLI_CACHE || join(homedir(), ".cache", "handoff-agent-clis");
const PACKAGES = { claude: "@anthropic-ai/claude-code", codex: "@openai/codex", gemini: "@google/gemini-cli" };
/** The plugin's hooks as Codex lists them: event and matcher (hooks/hooks.json). */
const CODEX_HOOKS = [
  "preToolUse Read|Grep|Glob",
  "preToolUse Bash",
  "preToolUse mcp__handoff__.*|mcp__plugin_handoff_handoff__.*",
  "preCompact manual|auto",
  "postCompact manual|auto",
  "sessionStart startup|resume|compact|fork",
  "sessionEnd -",
];

const scratch = mkdtempSync(join(tmpdir(), "handoff-agent-check-"));
const home = join(scratch, "home");
const clone = join(scratch, "clone");
let failed = false;

/** Runs a program; its output, exit code and (when it could not start) error. */
function run(file, args, options = {}) {
  const result = spawnSync(file, args, { encoding: "utf8", timeout: 180_000, ...options, env: { ...process.env, HOME: home, ...options.env } });
  return { code: result.status, out: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim(), error: result.error };
}

function say(line) {
  process.stdout.write(`${line}\n`);
}

function check(ok, what, detail = "") {
  say(`  ${ok ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}`);
  if (!ok) failed = true;
  return ok;
}

/** The agent's CLI, installed once into the cache, or why it cannot be. */
function install(agent) {
  const name = PACKAGES[agent];
  const bin = join(cache, "node_modules", ".bin", agent);
  if (!existsSync(bin)) {
    mkdirSync(cache, { recursive: true });
    const npm = spawnSync("npm", ["install", "--prefix", cache, "--no-audit", "--no-fund", "--loglevel", "error", name], { encoding: "utf8", timeout: 600_000 });
    if (npm.status !== 0 || !existsSync(bin)) return { reason: `npm install ${name} failed: ${(npm.stderr || npm.error?.message || "").trim().split("\n").slice(-1)[0]}` };
  }
  const manifest = JSON.parse(readFileSync(join(cache, "node_modules", ...name.split("/"), "package.json"), "utf8"));
  const version = run(bin, ["--version"]);
  if (version.code !== 0) return { reason: `${bin} --version failed: ${version.out || version.error?.message}` };
  return { bin, version: manifest.version, engines: manifest.engines?.node ?? "any" };
}

function claude(bin) {
  for (const manifest of [".claude-plugin/marketplace.json", "plugin/.claude-plugin/plugin.json"]) {
    const validate = run(bin, ["plugin", "validate", "--strict", join(clone, manifest)], { cwd: scratch });
    check(
      validate.code === 0,
      `claude plugin validate --strict ${manifest}`,
      validate.out
        .split("\n")
        .filter((l) => /[✔✘❯]|error|warn/i.test(l))
        .join(" | "),
    );
  }
}

function codex(bin) {
  const env = { CODEX_HOME: join(home, ".codex") };
  mkdirSync(env.CODEX_HOME, { recursive: true });
  const added = run(bin, ["plugin", "marketplace", "add", clone], { env });
  if (!check(added.code === 0, "codex plugin marketplace add <clone>", added.code === 0 ? "" : added.out)) return Promise.resolve();
  const plugin = run(bin, ["plugin", "add", "handoff@handoff"], { env });
  if (!check(plugin.code === 0, "codex plugin add handoff@handoff", plugin.code === 0 ? "" : plugin.out)) return Promise.resolve();
  return appServer(bin, env, [
    ["initialize", { clientInfo: { name: "handoff-check", version: "1" }, capabilities: { experimentalApi: true } }],
    ["hooks/list", { cwds: [clone] }],
  ]).then(
    ([, list]) => {
      const entry = list.result?.data?.[0];
      const hooks = (entry?.hooks ?? []).filter((h) => h.pluginId === "handoff@handoff");
      const listed = hooks.map((h) => `${h.eventName} ${h.matcher ?? "-"}`).sort();
      check(JSON.stringify(listed) === JSON.stringify([...CODEX_HOOKS].sort()), "hooks/list lists the plugin's 7 hooks", listed.join("; "));
      check((entry?.warnings ?? []).length === 0 && (entry?.errors ?? []).length === 0, "hooks/list: no warning, no error", JSON.stringify({ warnings: entry?.warnings, errors: entry?.errors }));
      const end = hooks.find((h) => h.eventName === "sessionEnd");
      check(end !== undefined && end.timeoutSec <= 3, "SessionEnd's timeout within Codex's 3 s", `${end?.timeoutSec} s`);
      say(`  (trust: ${[...new Set(hooks.map((h) => h.trustStatus))].join(", ")}; a person trusts them once in Codex's /hooks)`);
    },
    (error) => check(false, "codex app-server hooks/list", String(error)),
  );
}

/** JSON-RPC over `codex app-server`'s stdio: each request's response, in order. */
function appServer(bin, env, requests) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["app-server"], { env: { ...process.env, HOME: home, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    const answers = new Map();
    let buffer = "";
    const timer = setTimeout(() => finish(new Error("no answer from codex app-server in 60 s")), 60_000);
    const finish = (error) => {
      clearTimeout(timer);
      child.kill();
      if (error) reject(error);
      else resolve(requests.map((_, i) => answers.get(i + 1)));
    };
    child.on("error", finish);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffer += chunk;
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof message.id !== "number") continue;
        answers.set(message.id, message);
        if (message.id === 1) child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "initialized" })}\n`);
        if (message.id < requests.length) send(message.id + 1);
        else finish();
      }
    });
    const send = (id) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: requests[id - 1][0], params: requests[id - 1][1] })}\n`);
    send(1);
  });
}

async function gemini(bin) {
  const extension = join(clone, "gemini");
  const project = join(scratch, "project");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  mkdirSync(project, { recursive: true });
  // Installing asks whether the source folder is trusted; a scratch HOME says so beforehand.
  writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [extension]: "TRUST_FOLDER", [scratch]: "TRUST_FOLDER", [project]: "TRUST_FOLDER" }));
  const validate = run(bin, ["extensions", "validate", extension], { cwd: scratch });
  check(validate.code === 0, "gemini extensions validate gemini/", validate.out.split("\n").slice(-1)[0]);
  const installed = run(bin, ["extensions", "install", extension, "--consent"], { cwd: scratch });
  check(installed.code === 0 && /installed successfully/.test(installed.out), "gemini extensions install <clone>/gemini --consent", installed.out.split("\n").slice(-1)[0]);
  const copy = join(home, ".gemini", "extensions", "handoff");
  check(
    ["gemini-extension.json", "hooks/hooks.json", "skills/handoff/SKILL.md"].every((f) => existsSync(join(copy, f))),
    "the installed copy holds the manifest, the hooks and the skill",
  );

  // A `handoff` that records what Gemini CLI hands it (and fails `handoff mcp` at once).
  const bin2 = join(scratch, "bin");
  const log = join(scratch, "gemini-hook-events.jsonl");
  mkdirSync(bin2, { recursive: true });
  writeFileSync(join(bin2, "handoff"), `#!/bin/sh\n[ "$1" = mcp ] && exit 1\n{ cat; echo; } >> '${log}'\n`);
  chmodSync(join(bin2, "handoff"), 0o755);
  spawnSync("git", ["init", "-q", project]);
  const env = { ...process.env, HOME: home, PATH: `${bin2}${delimiter}${process.env.PATH}`, GEMINI_API_KEY: "not-a-key" };
  const child = spawn(bin, ["-p", "say hi"], { cwd: project, env, stdio: "ignore" });
  const events = () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l))
      : [];
  const seen = (name) => events().some((e) => e.hook_event_name === name);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !(seen("SessionStart") && seen("PreCompress"))) await new Promise((r) => setTimeout(r, 250));
  // Its SessionEnd hook runs when it is stopped, as when a person quits.
  child.kill("SIGTERM");
  await new Promise((r) => (child.exitCode === null ? child.on("exit", r) : r()));
  for (const name of ["SessionStart", "PreCompress", "SessionEnd"]) {
    const event = events().find((e) => e.hook_event_name === name);
    check(event !== undefined, `gemini -p ran the extension's ${name} hook`, event ? `keys ${Object.keys(event).join(", ")}; ${event.source ?? event.trigger ?? event.reason}` : "not received");
  }
}

try {
  const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(PACKAGES);
  mkdirSync(home, { recursive: true });
  const cloned = spawnSync("git", ["clone", "-q", root, clone], { encoding: "utf8" });
  if (cloned.status !== 0) throw new Error(`git clone of ${root} failed: ${cloned.stderr}`);
  say(
    `Checking ${chosen.join(", ")} against a clone of ${spawnSync("git", ["-C", clone, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim()} (scratch HOME ${home}); Node ${process.version}`,
  );
  for (const agent of chosen) {
    if (!(agent in PACKAGES)) throw new Error(`unknown agent '${agent}': pass ${Object.keys(PACKAGES).join(", ")}`);
    const cli = install(agent);
    if ("reason" in cli) {
      say(`== ${agent}: skipped (${cli.reason})`);
      continue;
    }
    say(`== ${agent}: ${PACKAGES[agent]} ${cli.version} (engines: node ${cli.engines})`);
    if (agent === "claude") claude(cli.bin);
    else if (agent === "codex") await codex(cli.bin);
    else await gemini(cli.bin);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
say(failed ? "Some checks failed." : "All checks passed.");
process.exitCode = failed ? 1 : 0;
