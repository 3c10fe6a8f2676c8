// Bundles the CLI (client/ + shared/) into dist/ with esbuild. Code splitting keeps the entry
// small: commands and heavy dependencies load only when a command needs them.
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export async function buildCli() {
  const { build } = await import("esbuild");
  const { rmSync } = await import("node:fs");
  // Chunk names carry content hashes: clear old ones so dist/ holds exactly one build.
  rmSync(`${root}/dist/chunks`, { recursive: true, force: true });
  // Before the launcher became CommonJS these two were ES modules: a stale copy must not linger.
  for (const old of ["help.js", "guard.js"]) rmSync(`${root}/dist/${old}`, { force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { cli: "client/cli/main.ts" },
    outdir: "dist",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    chunkNames: "chunks/[name]-[hash]",
    // CommonJS dependencies bundled into ESM need a require for node built-ins.
    banner: { js: "import { createRequire as __handoffRequire } from 'node:module'; const require = __handoffRequire(import.meta.url);" },
  });
  // The launcher's two fast paths, each one self-contained CommonJS file (bin/handoff.cjs
  // requires them; a CommonJS load skips the ES module loader's start-up), no chunks, no zod:
  // help and --version from the declarations, and the guard hook, which runs on every tool call.
  await build({
    absWorkingDir: root,
    entryPoints: { help: "client/cli/help-main.ts", guard: "client/hook/guard.ts" },
    outdir: "dist",
    bundle: true,
    // The declarations' lazy loaders are never called on the help path: leave the commands out.
    external: ["../commands/*/run.js", "./completion.js", "../mcp/command.js"],
    format: "cjs",
    outExtension: { ".js": ".cjs" },
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCli();
}
