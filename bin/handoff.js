#!/usr/bin/env node
// Thin launcher. Help and --version print from one small module (dist/help.js); everything else
// runs the CLI bundle (dist/cli.js). `handoff guard` is a hook that runs on every tool call: it
// has its own small bundle (dist/guard.js), loaded instead of either. The package ships dist/; a
// clone builds it on `npm install` (the prepare script) or with `npm run build`. Nothing is built
// here: a build tool is a development dependency, absent where the CLI is installed. No top-level
// await: a module that has one is evaluated asynchronously, which costs start-up.
const guard = process.argv[2] === "guard";
const help = new URL("../dist/help.js", import.meta.url);

function notBuilt(error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/dist/")) throw error;
  process.stderr.write(
    `handoff: the CLI is not built (${help.pathname.replace(/help\.js$/, "")} is missing files).\n` +
      "In a clone of the Handoff repository run `npm install` (or `npm run build`), then try again.\n",
  );
  // For the guard, 2 is the hook protocol's "block": an unbuilt guard must not let a sealed read through.
  process.exit(guard ? 2 : 3);
}

if (guard) {
  import("../dist/guard.js").then((entry) => entry.runGuardProcess(process.argv.slice(3))).catch(notBuilt);
} else {
  import(help.href)
    .then(({ fastText }) => {
      const text = fastText(process.argv.slice(2), Boolean(process.stdin.isTTY));
      if (text !== undefined) process.stdout.write(text);
      else return import("../dist/cli.js").then((cli) => cli.runProcess());
    })
    .catch(notBuilt);
}
