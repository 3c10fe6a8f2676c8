// Runs every benchmark script in bench/ (files named *.bench.js) one after another.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv[2];
let failed = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".bench.js"))
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [`${dir}${file}`], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
