#!/usr/bin/env node
// Thin launcher: runs the prebuilt bundle (dist/cli.js). The package ships dist/; a clone builds
// it on `npm install` (the prepare script) or with `npm run build`. Nothing is built here: a
// build tool is a development dependency, absent where the CLI is installed.
// `handoff guard` is a hook that runs on every tool call: it has its own small bundle
// (dist/guard.js), loaded instead of the CLI's.
const guard = process.argv[2] === "guard";
const bundle = new URL(guard ? "../dist/guard.js" : "../dist/cli.js", import.meta.url);
let entry;
try {
  entry = await import(bundle.href);
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes(bundle.pathname)) throw error;
  process.stderr.write(
    `handoff: the CLI is not built (${bundle.pathname} is missing).\n` +
      "In a clone of the Handoff repository run `npm install` (or `npm run build`), then try again.\n",
  );
  // For the guard, 2 is the hook protocol's "block": an unbuilt guard must not let a sealed read through.
  process.exit(guard ? 2 : 3);
}
if (guard) await entry.runGuardProcess(process.argv.slice(3));
else await entry.runProcess();
