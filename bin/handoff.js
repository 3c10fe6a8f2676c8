#!/usr/bin/env node
// Thin launcher: runs the prebuilt bundle (dist/cli.js). The package ships dist/; a clone builds
// it on `npm install` (the prepare script) or with `npm run build`. Nothing is built here: a
// build tool is a development dependency, absent where the CLI is installed.
const bundle = new URL("../dist/cli.js", import.meta.url);
let cli;
try {
  cli = await import(bundle.href);
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes(bundle.pathname)) throw error;
  process.stderr.write(
    `handoff: the CLI is not built (${bundle.pathname} is missing).\n` +
      "In a clone of the Handoff repository run `npm install` (or `npm run build`), then try again.\n",
  );
  process.exit(3);
}
await cli.runProcess();
