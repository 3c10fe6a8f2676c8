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
// - Compiled code is cached in a private per-user folder: a command's bundles by the launcher's
//   own loader, which keeps V8's code cache through node:vm (see cachedLoader); help and the
//   guard by Node's own compile cache, where Node has one (see nodeCompileCache).
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
 * The private per-user folder compiled code is kept in: the user's cache folder, made private
 * (0700) where it is created here, and not used when another user could write to it (cached code
 * runs as the CLI). Anything amiss (no HOME, a read-only home, NODE_DISABLE_COMPILE_CACHE) gives
 * none, and the command runs as it would without a cache.
 */
function cacheFolder(leaf) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg?.startsWith("/") ? xdg : process.env.HOME ? `${process.env.HOME}/.cache` : undefined;
  if (base === undefined) return undefined;
  const dir = `${base}/handoff/compile-cache${leaf ? `/${leaf}` : ""}`;
  try {
    require("node:fs").mkdirSync(dir, { recursive: true, mode: 0o700 });
    return privateFolder(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Node's own compile cache (module.enableCompileCache, Node 22.1 and newer), for the help module
 * and the guard: small files, where the launcher's loader costs more to set up (node:vm, the
 * exit hook) than it saves. Node 20 has none: they compile on every run.
 */
function nodeCompileCache() {
  const { enableCompileCache } = require("node:module");
  if (typeof enableCompileCache !== "function") return;
  const dir = cacheFolder();
  if (dir !== undefined) enableCompileCache(dir);
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
 * A loader for the CLI's own files under dist/ that keeps V8's code cache of each, on documented
 * APIs only. A file is compiled by node:vm's Script, wrapped as a CommonJS module, with the
 * cached data of an earlier run, and called with module.createRequire(file) for what it requires
 * outside dist/ (Node's built-ins); what it requires under dist/ (dist/vendor/, dist/paths/)
 * comes through this loader too. The cache is written at exit, after the command ran, so it holds
 * every function the command compiled, where Node's own compile cache keeps only what was
 * compiled before the file ran (the top level): docs/startup.md has both figures, on Node 20 (no
 * compile cache of its own), 22 and 24.
 * V8 checks cached data against its own version, flags and the source's length, and refuses what
 * does not fit (cachedDataRejected: the file's cache is then written again). The cache file's name
 * carries the file's path, size, mtime and inode, so a rebuilt or reinstalled file of the same
 * length is never paired with another's code. Written privately (0600) and atomically; older
 * entries of the same file go. Without a folder (see cacheFolder) the files are required as usual.
 */
function cachedLoader() {
  const dir = cacheFolder(`v8-${process.version}-${process.arch}`);
  if (dir === undefined) return require;
  const fs = require("node:fs");
  const { Script } = require("node:vm");
  const { createRequire } = require("node:module");
  const { dirname, join, sep } = require("node:path");
  const dist = join(__dirname, "..", "dist") + sep;
  const modules = new Map();
  const fresh = [];
  // NODE_DEBUG=handoff says, per file, whether its cached code was used (as NODE_DEBUG=module does for Node's loader).
  const debug = /\bhandoff\b/i.test(process.env.NODE_DEBUG ?? "");
  const load = (filename) => {
    const known = modules.get(filename);
    if (known !== undefined) return known.exports;
    let content;
    let stat;
    try {
      content = fs.readFileSync(filename, "utf8");
      stat = fs.statSync(filename);
    } catch (error) {
      // As Node's loader says it (notBuilt reads it): a file of the build is missing.
      if (error.code !== "ENOENT") throw error;
      throw Object.assign(new Error(`Cannot find module '${filename}'`), { code: "MODULE_NOT_FOUND" });
    }
    const prefix = hash64(filename);
    const file = join(dir, `${prefix}-${hash64(`${stat.size}:${stat.mtimeMs}:${stat.ino}`)}.v8`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      // Not cached yet.
    }
    // The wrapper CommonJS gives a module, on the file's first line: line numbers read as the file's.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${content}\n})`, { filename, cachedData });
    // V8 sets cachedDataRejected only when it was given data: false is the one proof it used them.
    const used = script.cachedDataRejected === false;
    if (!used) fresh.push({ script, file });
    if (debug) process.stderr.write(`HANDOFF ${process.pid}: code cache ${used ? "hit" : cachedData === undefined ? "miss" : "rejected"} ${filename}\n`);
    const module = { exports: {}, filename, id: filename, loaded: false };
    modules.set(filename, module);
    const here = dirname(filename);
    const nodeRequire = createRequire(filename);
    const moduleRequire = (id) => {
      const inDist = id.startsWith(".") && id.endsWith(".cjs") ? join(here, id) : undefined;
      return inDist?.startsWith(dist) ? load(inDist) : nodeRequire(id);
    };
    try {
      script.runInThisContext({ displayErrors: true }).call(module.exports, module.exports, moduleRequire, module, filename, here);
    } catch (error) {
      // As in Node's loader: a module that threw is not kept half made.
      modules.delete(filename);
      throw error;
    }
    module.loaded = true;
    return module.exports;
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
  return load;
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
  if (guard || maybeHelp) nodeCompileCache();
  if (guard) {
    require("../dist/guard.cjs").runGuardProcess();
  } else {
    // Bare `handoff` on a terminal shows help; isatty avoids setting up a stdin stream.
    const text = maybeHelp ? require("../dist/help.cjs").fastText(argv, argv.length === 0 && require("node:tty").isatty(0)) : undefined;
    if (text !== undefined) printSync(text);
    else cachedLoader()(commandBundle()).runProcess();
  }
} catch (error) {
  notBuilt(error);
}
