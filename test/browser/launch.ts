import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { repoRoot } from "../helpers/cli.js";

/**
 * The one way browser tests start Chromium. The browser comes from npm (@sparticuz/chromium, a
 * headless build packed with brotli), so no system package is needed; `CHROMIUM_PATH` may point at
 * another Chromium instead. The package's own argument list is never used: it carries
 * --disable-web-security (and friends), which would void the CSP and XSS tests. The one extra flag
 * is --no-sandbox (no user namespaces for the sandbox here). playwright-core's launch() gives each
 * browser a fresh user-data-dir under TMPDIR and removes it on close.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: ["--no-sandbox"] });
}

/** `CHROMIUM_PATH`, else the npm package's Chromium, unpacked once into node_modules/.cache. */
async function chromiumPath(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH is ${chosen}, which does not exist: point it at a Chromium binary or unset it to use the one from npm`);
    return chosen;
  }
  const { default: packed } = await import("@sparticuz/chromium");
  const { version } = JSON.parse(readFileSync(join(repoRoot, "node_modules", "@sparticuz", "chromium", "package.json"), "utf8")) as { version: string };
  const cacheRoot = join(repoRoot, "node_modules", ".cache");
  const home = join(cacheRoot, `handoff-chromium-${version}`);
  const binary = join(home, "chromium");
  if (existsSync(binary)) return binary;
  // The package unpacks into os.tmpdir(), read synchronously when the call starts. Point it at a
  // staging folder, then rename that into place: parallel test files never see half a browser.
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, "handoff-chromium-unpacking-"));
  const saved = process.env.TMPDIR;
  let unpacked: Promise<string>;
  try {
    process.env.TMPDIR = staging;
    unpacked = packed.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  try {
    await unpacked;
    renameSync(staging, home);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another test file won the race: its copy is complete.
    if (existsSync(binary)) return binary;
    throw error;
  }
  return binary;
}
