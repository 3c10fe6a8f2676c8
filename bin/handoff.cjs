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
// - Compiled code is cached in a private per-user folder (see compileCache): V8's code cache,
//   kept by the launcher, of every function a command ran.
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
 * Every command after the first skips parsing and compiling its bundle: the launcher keeps V8's
 * code cache of the CLI's own files (see v8CodeCache), on every Node version. Node 22.1 and newer
 * have a compile cache of their own (module.enableCompileCache), but it keeps what was compiled
 * before the file ran, so every function a command calls is compiled again on every run; the
 * launcher's keeps them too. Measured on this machine (CPU, interleaved medians, issue 26's
 * closing note has the table): validate 2.20x -> 1.78x node -e 0 on Node 22, 2.34x -> 1.87x on
 * Node 24 against Node's own cache; on Node 20, which has none, about 20 ms off validate and resume.
 * The help module (34 KB, `codeCache: false`) keeps Node's own cache where there is one: setting
 * up the launcher's cost about 3 ms of CPU there, more than compiling that file saves.
 * The folder is the user's own cache folder, made private (0700) where it is created here. Anything
 * amiss (no HOME, a read-only home, NODE_DISABLE_COMPILE_CACHE) runs without the cache.
 */
function compileCache({ codeCache }) {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg?.startsWith("/") ? xdg : process.env.HOME ? `${process.env.HOME}/.cache` : undefined;
  if (base === undefined) return;
  const dir = `${base}/handoff/compile-cache`;
  try {
    if (codeCache) {
      if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
      // Beside the folders Node's own cache makes in there: one per Node release and CPU.
      const own = `${dir}/v8-${process.version}-${process.arch}`;
      require("node:fs").mkdirSync(own, { recursive: true, mode: 0o700 });
      if (privateFolder(own)) v8CodeCache(own);
    } else {
      const { enableCompileCache } = require("node:module");
      if (typeof enableCompileCache !== "function") return;
      require("node:fs").mkdirSync(dir, { recursive: true, mode: 0o700 });
      enableCompileCache(dir);
    }
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

/** Two 32-bit string hashes side by side (FNV-1a and djb2): a file name, not a security check. */
function hash64(text) {
  let fnv = 0x811c9dc5;
  let djb = 5381;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 0x01000193);
    djb = (Math.imul(djb, 33) ^ c) | 0;
  }
  return (fnv >>> 0).toString(36) + (djb >>> 0).toString(36);
}

/**
 * V8's code cache for the files under dist/, kept in `dir` (see compileCache):
 * the CommonJS loader's compile step for those files, done by vm.Script with the cached data,
 * which V8 checks against its own version, flags and the source's length and refuses when they
 * differ. The cache file's name carries the file's path, size, mtime and inode, so a rebuilt or
 * reinstalled file is never paired with another's code. What was compiled without usable data is
 * written at exit, after the command ran (the data then holds every function it compiled, not
 * only the top level), privately (0600) and atomically; older entries of the same file go.
 * Every other file (Node's own, anything outside dist/) is compiled by Node as usual.
 */
function v8CodeCache(dir) {
  const Module = require("node:module");
  const fs = require("node:fs");
  const { Script } = require("node:vm");
  const { dirname, join, sep } = require("node:path");
  const dist = join(__dirname, "..", "dist") + sep;
  const compile = Module.prototype._compile;
  const fresh = [];
  // NODE_DEBUG=handoff says, per file, whether its cached code was used (as NODE_DEBUG=module does for Node's loader).
  const debug = /\bhandoff\b/i.test(process.env.NODE_DEBUG ?? "");
  Module.prototype._compile = function (content, filename) {
    if (!filename.startsWith(dist) || !filename.endsWith(".cjs")) return compile.call(this, content, filename);
    const stat = fs.statSync(filename);
    const prefix = hash64(filename);
    const file = join(dir, `${prefix}-${hash64(`${stat.size}:${stat.mtimeMs}:${stat.ino}`)}.v8`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      // Not cached yet.
    }
    const script = new Script(Module.wrap(content), { filename, cachedData });
    // V8 sets cachedDataRejected only when it was given data: false is the one proof it used them.
    const used = script.cachedDataRejected === false;
    if (!used) fresh.push({ script, file });
    if (debug) process.stderr.write(`HANDOFF ${process.pid}: code cache ${used ? "hit" : cachedData === undefined ? "miss" : "rejected"} ${filename}\n`);
    // The module's own require, as Node's loader gives it (the bundles use require(id) only).
    const localRequire = (id) => this.require(id);
    localRequire.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    localRequire.main = require.main;
    localRequire.cache = Module._cache;
    return script.runInThisContext({ displayErrors: true }).call(this.exports, this.exports, localRequire, this, filename, dirname(filename));
  };
  process.once("exit", () => {
    const written = new Set();
    for (const { script, file } of fresh) {
      const temp = `${file}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: "wx" });
        fs.renameSync(temp, file);
        written.add(file.slice(dir.length + 1));
      } catch {
        // A cache that cannot be written costs the next run its compile, nothing else.
        fs.rmSync(temp, { force: true });
      }
    }
    if (written.size === 0) return;
    // Older entries of the files just written (same path prefix, another stat part) go, in one listing.
    const prefixes = new Set([...written].map((name) => name.slice(0, name.indexOf("-") + 1)));
    try {
      for (const name of fs.readdirSync(dir)) if (!written.has(name) && prefixes.has(name.slice(0, name.indexOf("-") + 1))) fs.rmSync(join(dir, name), { force: true });
    } catch {
      // Stale entries stay until the next write; they are never paired with a file.
    }
  });
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
  compileCache({ codeCache: !maybeHelp });
  if (guard) {
    require("../dist/guard.cjs").runGuardProcess();
  } else {
    // Bare `handoff` on a terminal shows help; isatty avoids setting up a stdin stream.
    const text = maybeHelp ? require("../dist/help.cjs").fastText(argv, argv.length === 0 && require("node:tty").isatty(0)) : undefined;
    if (text !== undefined) printSync(text);
    else {
      // A help-shaped argv that is not help after all (fastText said so) runs its command, cached.
      if (maybeHelp) compileCache({ codeCache: true });
      require(commandBundle()).runProcess();
    }
  }
} catch (error) {
  notBuilt(error);
}
