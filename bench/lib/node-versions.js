// The Node binaries a start-up benchmark runs under: this one, and the other tested majors (22 and
// 24) that scripts/test-nodes.js installed into node_modules/.cache/test-nodes/ (npm install and
// npm ci do it, in a clone). Benchmarks never fetch anything.
import { spawnSync } from "node:child_process";
import { TEST_NODES, testNode } from "../../scripts/test-nodes.js";

/** `{ found: [{ label, path }], missing: [why] }`: the running Node first, then each cached major that runs. */
export function nodeBinaries() {
  const found = [{ label: `Node ${process.versions.node}`, path: process.execPath }];
  const missing = [];
  for (const major of Object.keys(TEST_NODES)) {
    if (process.version.startsWith(`v${major}.`)) continue;
    const binary = testNode(major);
    if (binary.node === undefined) {
      missing.push(binary.reason);
      continue;
    }
    const version = spawnSync(binary.node, ["--version"], { encoding: "utf8" });
    if (version.status === 0) found.push({ label: `Node ${version.stdout.trim().slice(1)}`, path: binary.node });
    else missing.push(`Node ${binary.version}: ${binary.node} does not run here`);
  }
  return { found, missing };
}
