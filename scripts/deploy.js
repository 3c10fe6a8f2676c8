// One-command deploy of the publishing backend to Cloudflare: `npm run deploy`.
// 1. checks the wrangler login; 2. finds or creates the R2 bucket and its retention backstop rules;
// 3. `wrangler deploy`, which applies the Durable Object migrations and the cron trigger, and
//    finds or creates the KV namespace itself (wrangler's resource provisioning: the binding in
//    wrangler.toml has no id, so a deployed Worker keeps its namespace and a first deploy gets a new
//    one), uploading the operator secret ADMIN_TOKEN with it when the Worker has none yet;
// 4. prints the server URL and the next commands.
// `npm run deploy -- --dry-run` needs no account and no network: it bundles the real
// configuration (`wrangler deploy --dry-run`) and prints the plan. docs/deploy.md has the details.
// Exit codes: 0 done, 2 usage, 3 a wrangler step failed (its own output says why).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const WRANGLER = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const CONFIG = "wrangler.toml";

/** Retention's last line of defence (docs/deploy.md): objects the sweeps missed expire anyway. */
export const LIFECYCLE_RULES = [
  { name: "bodies-backstop", prefix: "v1/bodies/", days: 32 },
  { name: "expiry-index-backstop", prefix: "v2/expiry/", days: 40 },
];

const USAGE = "usage: npm run deploy [-- --dry-run]";

/** `{ dryRun }`, or `{ error }` for anything else on the command line. */
export function parseArgs(argv) {
  const unknown = argv.filter((arg) => arg !== "--dry-run");
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  if (unknown.length > 0) return { error: `unknown argument ${JSON.stringify(unknown[0])}` };
  return { dryRun: argv.includes("--dry-run") };
}

/** What the deploy needs from wrangler.toml: the Worker's name and its bucket. */
export function deployTarget(tomlText) {
  const name = /^name\s*=\s*"([^"]+)"/m.exec(tomlText)?.[1];
  const bucket = /\[\[r2_buckets\]\][^[]*?bucket_name\s*=\s*"([^"]+)"/s.exec(tomlText)?.[1];
  if (!name || !bucket) throw new Error(`${CONFIG} names no Worker (name = ...) or no R2 bucket ([[r2_buckets]] bucket_name = ...)`);
  return { name, bucket };
}

/** The Worker's URL in `wrangler deploy`'s output, if it printed one. */
export function deployedUrl(output) {
  return /https:\/\/[a-z0-9.-]+\.workers\.dev\b/i.exec(output)?.[0];
}

/** The commands a deploy runs, in order, for the plan a dry run prints. */
export function plan({ name, bucket }) {
  return [
    "wrangler whoami   # logged in? else: npx wrangler login",
    `wrangler r2 bucket info ${bucket}   # else: wrangler r2 bucket create ${bucket}`,
    ...LIFECYCLE_RULES.map((rule) => `wrangler r2 bucket lifecycle add ${bucket} ${rule.name} ${rule.prefix} --expire-days ${rule.days} --force   # when missing`),
    "wrangler secret list   # ADMIN_TOKEN set? else a new one goes up with the deploy",
    `wrangler deploy [--secrets-file FILE]   # migrations, cron, assets; KV namespace META: ${name}'s own, or a new one`,
  ];
}

function wrangler(args, { capture = false } = {}) {
  const run = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: root,
    encoding: "utf8",
    stdio: ["inherit", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  return { code: run.status ?? 1, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

function fail(message, code) {
  console.error(`deploy: ${message}`);
  process.exitCode = code;
}

function dryRun(target) {
  const out = mkdtempSync(join(tmpdir(), "handoff-deploy-"));
  try {
    console.log(`deploy --dry-run: ${CONFIG} (Worker "${target.name}", bucket "${target.bucket}"), nothing sent anywhere`);
    const run = wrangler(["deploy", "--dry-run", "--outdir", out]);
    if (run.code !== 0) return fail(`wrangler deploy --dry-run failed (exit ${run.code})`, 3);
    console.log("\nA real deploy (npm run deploy) runs:");
    for (const step of plan(target)) console.log(`  ${step}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function deploy(target) {
  if (wrangler(["whoami"], { capture: true }).code !== 0) return fail("not logged in to Cloudflare: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then npm run deploy again", 3);

  if (wrangler(["r2", "bucket", "info", target.bucket], { capture: true }).code === 0) console.log(`R2 bucket ${target.bucket}: found`);
  else if (wrangler(["r2", "bucket", "create", target.bucket]).code !== 0) return fail(`could not create the R2 bucket ${target.bucket}`, 3);

  const rules = wrangler(["r2", "bucket", "lifecycle", "list", target.bucket], { capture: true });
  for (const rule of LIFECYCLE_RULES) {
    if (rules.code === 0 && rules.stdout.includes(rule.name)) continue;
    const added = wrangler(["r2", "bucket", "lifecycle", "add", target.bucket, rule.name, rule.prefix, "--expire-days", String(rule.days), "--force"]);
    if (added.code !== 0) return fail(`could not add the lifecycle rule ${rule.name} to ${target.bucket}`, 3);
  }

  // The operator secret: kept when the Worker has one; else $HANDOFF_ADMIN_TOKEN or a new random one, uploaded with the deploy.
  const secrets = wrangler(["secret", "list", "--format", "json"], { capture: true });
  const hasAdmin = secrets.code === 0 && /"name"\s*:\s*"ADMIN_TOKEN"/.test(secrets.stdout);
  const newToken = hasAdmin ? undefined : process.env.HANDOFF_ADMIN_TOKEN || randomBytes(32).toString("base64url");
  const dir = mkdtempSync(join(tmpdir(), "handoff-deploy-"));
  try {
    const args = ["deploy"];
    if (newToken !== undefined) {
      const file = join(dir, "secrets.json");
      writeFileSync(file, JSON.stringify({ ADMIN_TOKEN: newToken }), { mode: 0o600 });
      args.push("--secrets-file", file);
    }
    const run = wrangler(args, { capture: true });
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    if (run.code !== 0) return fail(`wrangler deploy failed (exit ${run.code}); nothing else was changed after the bucket`, 3);
    const url = deployedUrl(run.stdout) ?? "https://<your worker's URL>";
    console.log(`\nDeployed: ${url}`);
    if (newToken !== undefined) {
      console.log("Operator token (ADMIN_TOKEN), shown once: keep it in a password manager; `npm run team` reads it from HANDOFF_ADMIN_TOKEN:");
      console.log(`  export HANDOFF_ADMIN_TOKEN=${newToken}`);
    } else console.log("ADMIN_TOKEN was already set on the Worker: kept.");
    console.log("\nNext:");
    console.log(`  handoff config set server ${url}`);
    console.log(`  npm run team -- create <team> --server ${url}    # a team and its first token`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) console.log(`${USAGE}\n  --dry-run  bundle the real ${CONFIG} and print the plan; no account, no network`);
  else if (args.error) fail(`${args.error}\n${USAGE}`, 2);
  else {
    const target = deployTarget(readFileSync(join(root, CONFIG), "utf8"));
    if (args.dryRun) dryRun(target);
    else deploy(target);
  }
}
