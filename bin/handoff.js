#!/usr/bin/env node
// Thin launcher: runs the prebuilt bundle (dist/cli.js). On a fresh checkout where nothing has
// been built yet, builds it once with esbuild, then runs it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/cli.js", import.meta.url);
const guard = new URL("../dist/guard.js", import.meta.url);
if (!existsSync(fileURLToPath(bundle)) || !existsSync(fileURLToPath(guard))) {
  const { buildCli } = await import("../scripts/build-cli.js");
  await buildCli();
}
// `handoff guard` is a hook that runs on every tool call: its own small bundle, not the CLI's.
if (process.argv[2] === "guard") {
  const { runGuardProcess } = await import(guard.href);
  await runGuardProcess(process.argv.slice(3));
} else {
  const { runProcess } = await import(bundle.href);
  await runProcess();
}
