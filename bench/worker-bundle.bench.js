// Worker bundle size: the deployable bundle of wrangler.toml (wrangler deploy --dry-run --outdir),
// gzipped, against a minimal Hono worker built the same way. Goal: ratio <= 3. No network: a dry
// run bundles and stops before any upload.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const wrangler = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
// Inside the repository so the minimal worker resolves the same hono from node_modules (gitignored).
const work = join(root, ".bench-tmp", "worker-bundle");

function dryRunBundle(cwd, config, outdir) {
  const result = spawnSync(process.execPath, [wrangler, "deploy", "--dry-run", "--config", config, "--outdir", outdir], {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  if (result.status !== 0) throw new Error(`wrangler deploy --dry-run (${config}) failed:\n${result.stderr || result.stdout}`);
  const bytes = readFileSync(join(outdir, "index.js"));
  return { raw: bytes.byteLength, gzip: gzipSync(bytes).byteLength };
}

rmSync(work, { recursive: true, force: true });
const minimalDir = join(work, "minimal-hono");
mkdirSync(minimalDir, { recursive: true });
writeFileSync(join(minimalDir, "index.ts"), 'import { Hono } from "hono";\nconst app = new Hono();\napp.get("/", (c) => c.json({ ok: true }));\nexport default app;\n');
writeFileSync(join(minimalDir, "wrangler.toml"), 'name = "minimal-hono"\nmain = "index.ts"\ncompatibility_date = "2026-04-20"\n');

try {
  const ours = dryRunBundle(root, "wrangler.toml", join(work, "handoff"));
  const minimal = dryRunBundle(minimalDir, "wrangler.toml", join(work, "minimal-out"));
  const ratio = ours.gzip / minimal.gzip;
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`worker bundle gzipped: ${kib(ours.gzip)} / minimal Hono worker ${kib(minimal.gzip)} = ratio ${ratio.toFixed(2)} (goal <= 3: ${ratio <= 3 ? "met" : "missed"})`);
  console.log(`  (raw: ${kib(ours.raw)} / ${kib(minimal.raw)}; wrangler deploy --dry-run, not minified)`);
  process.exitCode = ratio <= 3 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
