#!/usr/bin/env node
// Thin launcher. Help and --version print from one small module (dist/help.js, imported
// statically: a dynamic import costs a measurable share of start-up); everything else loads the
// CLI bundle (dist/cli.js). Both are built by `npm run build`, which `npm install` runs (prepare).
import { fastText } from "../dist/help.js";

const text = fastText(process.argv.slice(2), Boolean(process.stdin.isTTY));
if (text !== undefined) process.stdout.write(text);
// No top-level await: a module that has one is evaluated asynchronously, which costs start-up.
else import("../dist/cli.js").then((cli) => cli.runProcess());
