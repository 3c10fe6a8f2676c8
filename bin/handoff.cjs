#!/usr/bin/env node
"use strict";
// Thin launcher, CommonJS on purpose: Node starts a CommonJS entry at `node -e 0` speed, while an
// ES module entry costs its loader first (about 6 ms here, a fifth of Node's own start-up).
// - `handoff guard` is a hook that runs on every tool call: its own small bundle (dist/guard.cjs).
// - Help and --version print from one small module (dist/help.cjs), built from the same
//   declarations as the CLI, so `handoff guard --help` reads like every other command's help.
// - Every other command runs its own bundle, dist/commands/<name>.cjs, one self-contained file
//   per command path; anything that is not a command's name (flags only, a typo) runs create's,
//   whose CLI entry handles it (bare `handoff` with a body on stdin creates; a typo is a usage error).
// - Compiled code is cached in a private per-user folder by Node's own compile cache, where Node
//   has one (see compileCache).
// The package ships dist/; a clone builds it on `npm install` (the prepare script) or with
// `npm run build`. Nothing is built here: a build tool is a development dependency.
const argv = process.argv.slice(2);
const guard = argv[0] === "guard" && !argv.includes("--help") && !argv.includes("-h");

function notBuilt(error) {
  const missing = error && (error.code === "MODULE_NOT_FOUND" || error.code === "ERR_MODULE_NOT_FOUND");
  if (!missing || !String(error.message).includes("dist")) throw error;
  process.stderr.write(
    `handoff: the CLI is not built (${require("node:path").join(__dirname, "..", "dist")} is missing files).\n` +
      "In a clone of the Handoff repository run `npm install` (or `npm run build`), then try again.\n",
  );
  // For the guard, 2 is the hook protocol's "block": an unbuilt guard must not let a sealed read through.
  process.exit(guard ? 2 : 3);
}

/**
 * Node's own compile cache (module.enableCompileCache, Node 22.1 and newer): every command after
 * the first skips compiling the top level of its bundle. It is public API; the code cache this
 * launcher used to keep itself (by replacing the CommonJS loader's compile step, a loader
 * internal) also kept every function a command ran, and was worth more (docs/startup.md has both
 * figures). Node 20 has no compile cache: there every run compiles its bundle.
 * The folder is the user's own cache folder, made private (0700) where it is created here, and not
 * used when another user could write to it: cached code runs as the CLI. Anything amiss (no HOME,
 * a read-only home, NODE_DISABLE_COMPILE_CACHE) runs without the cache.
 */
function compileCache() {
  const { enableCompileCache } = require("node:module");
  if (typeof enableCompileCache !== "function" || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg?.startsWith("/") ? xdg : process.env.HOME ? `${process.env.HOME}/.cache` : undefined;
  if (base === undefined) return;
  const dir = `${base}/handoff/compile-cache`;
  try {
    require("node:fs").mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (privateFolder(dir)) enableCompileCache(dir);
  } catch {
    // No cache: the command runs as it would without one.
  }
}

/**
 * Code from the cache runs as the CLI: a folder another user could write to (made before us, or
 * opened up since) is not used. POSIX modes only; elsewhere the folder is the user's profile.
 */
function privateFolder(dir) {
  const stat = require("node:fs").lstatSync(dir);
  if (!stat.isDirectory()) return false;
  if (typeof process.getuid !== "function") return true;
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

/**
 * Help goes straight to descriptor 1: setting up process.stdout for a pipe loads Node's stream
 * and socket modules, a sixth of the whole start-up. A non-blocking stdout that is full (EAGAIN)
 * gets the rest through process.stdout, which waits for it; a closed one (EPIPE) ends quietly.
 */
function printSync(text) {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += require("node:fs").writeSync(1, bytes, written);
  } catch (error) {
    if (error.code === "EAGAIN") process.stdout.write(bytes.subarray(written));
    else if (error.code !== "EPIPE") throw error;
  }
}

/** The bundle of the command argv names; create's for anything else (see the header). */
function commandBundle() {
  const word = argv[0];
  const path = require("node:path").join(__dirname, "..", "dist", "commands", `${word}.cjs`);
  return word && /^[a-z][a-z-]*$/.test(word) && require("node:fs").existsSync(path) ? path : require("node:path").join(__dirname, "..", "dist", "commands", "create.cjs");
}

try {
  // Only what can be a help or version request (fastText's cases: no word, or at most two with
  // one of these) loads the help module; every other command goes straight to the CLI.
  const helpWords = ["--help", "-h", "help", "--version", "-v"];
  const maybeHelp = !guard && (argv.length === 0 || (argv.length <= 2 && argv.some((word) => helpWords.includes(word))));
  compileCache();
  if (guard) {
    require("../dist/guard.cjs").runGuardProcess();
  } else {
    // Bare `handoff` on a terminal shows help; isatty avoids setting up a stdin stream.
    const text = maybeHelp ? require("../dist/help.cjs").fastText(argv, argv.length === 0 && require("node:tty").isatty(0)) : undefined;
    if (text !== undefined) printSync(text);
    else require(commandBundle()).runProcess();
  }
} catch (error) {
  notBuilt(error);
}
