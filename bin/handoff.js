#!/usr/bin/env node
// Thin launcher: runs the prebuilt bundle (dist/cli.js). On a fresh checkout where nothing has
// been built yet, builds it once with esbuild, then runs it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  const { buildCli } = await import("../scripts/build-cli.js");
  await buildCli();
}
const { runProcess } = await import(bundle.href);
await runProcess();
