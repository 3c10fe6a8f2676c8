// The Node binaries a start-up benchmark runs under: this one, and Node 22 and 24 where the `node`
// package (which carries the binary) sits in a cache folder outside the repository's tracked files.
// Benchmarks never fetch anything; `node bench/lib/node-versions.js --install` does, once, with npm.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "./load-ts.js";

const cache = join(repoRoot, "node_modules", ".cache", "handoff-node");
const OTHER_MAJORS = [22, 24];

const binaryFor = (major) => join(cache, `n${major}`, "node_modules", "node", "bin", "node");

/** `[{ label, path }]`: the running Node first, then each cached major that runs. */
export function nodeBinaries() {
  const found = [{ label: `Node ${process.versions.node}`, path: process.execPath }];
  const missing = [];
  for (const major of OTHER_MAJORS) {
    const path = binaryFor(major);
    const version = existsSync(path) ? spawnSync(path, ["--version"], { encoding: "utf8" }) : undefined;
    if (version?.status === 0 && !process.version.startsWith(`v${major}.`)) found.push({ label: `Node ${version.stdout.trim().slice(1)}`, path });
    else if (!version) missing.push(major);
  }
  return { found, missing, installHint: `node ${join("bench", "lib", "node-versions.js")} --install` };
}

function install() {
  for (const major of OTHER_MAJORS) {
    const dir = join(cache, `n${major}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
    const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel", "error", `node@${major}`], { cwd: dir, stdio: "inherit" });
    console.log(result.status === 0 ? `Node ${major}: ${binaryFor(major)}` : `Node ${major}: npm install failed (exit ${result.status})`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv[2] === "--install") install();
