// Bundles the share page's reader (worker/page/reader/reader.ts and the shared/ code it imports,
// the same envelope code the CLI uses) for the browser with esbuild, minified, into
// dist/public/reader.js. wrangler.toml serves dist/public as the worker's static assets (binding
// ASSETS), so the script is not part of the worker bundle; the worker serves it at
// /h/assets/reader.js with its own security headers.
//
//   node scripts/build-reader.js      (npm run build:reader; npm run build and npm start run it)
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export const READER_ENTRY = "worker/page/reader/reader.ts";
/** Where wrangler's static assets come from ([assets] in wrangler.toml). */
export const ASSETS_DIR = join(root, "dist", "public");
export const READER_FILE = join(ASSETS_DIR, "reader.js");

/** esbuild's options for the reader whose sources sit under `tree` (the repository, or a copy of an older one). */
export function readerBuildOptions(tree) {
  return {
    absWorkingDir: tree,
    entryPoints: [READER_ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    logLevel: "warning",
  };
}

/**
 * Builds the reader and writes it to dist/public/reader.js; returns the script. The file is
 * written only when its content changes, and then by rename: every `wrangler dev` watches the
 * assets folder and restarts its worker on any write, and each one runs this build as it starts
 * ([build] in wrangler.toml). An unchanged rewrite by one server restarted the others mid-request
 * ("Your worker restarted mid-request", a 503 to a publish in a parallel test file).
 */
export async function buildReader() {
  const { build } = await import("esbuild");
  const result = await build(readerBuildOptions(root));
  const script = result.outputFiles[0]?.text;
  if (script === undefined) throw new Error("esbuild produced no output for the reader");
  if (currentReader() === script) return script;
  mkdirSync(dirname(READER_FILE), { recursive: true });
  const temporary = `${READER_FILE}.${process.pid}.tmp`;
  writeFileSync(temporary, script);
  renameSync(temporary, READER_FILE);
  return script;
}

function currentReader() {
  try {
    return readFileSync(READER_FILE, "utf8");
  } catch {
    return undefined;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildReader();
}
