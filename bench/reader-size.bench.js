// Share page reader size: the reader script (dist/public/reader.js, minified) gzipped, against
// the reader of a baseline commit built the same way in this run. The baseline defaults to the
// last commit before the rendered reader (a plain-text reader); pass another ref as the first
// argument. Its sources are taken with `git archive` into .bench-tmp, inside the repository so
// they resolve the same node_modules.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { readerBuildOptions } from "../scripts/build-reader.js";

const BASELINE = process.argv[2] ?? "03bdf90";
const root = fileURLToPath(new URL("..", import.meta.url));
const work = join(root, ".bench-tmp", "reader-size");

async function size(tree) {
  const { build } = await import("esbuild");
  const result = await build(readerBuildOptions(tree));
  const bytes = Buffer.from(result.outputFiles[0].contents);
  return { raw: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength };
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
try {
  const archive = execFileSync("git", ["archive", BASELINE, "tsconfig.base.json", "shared", "worker/page"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", work], { input: archive });
  const ours = await size(root);
  const base = await size(work);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`reader gzipped: ${kib(ours.gzip)} (${ours.gzip} B) / baseline ${BASELINE} ${kib(base.gzip)} (${base.gzip} B) = ratio ${(ours.gzip / base.gzip).toFixed(2)}`);
  console.log(`  (minified: ${kib(ours.raw)} / ${kib(base.raw)}; gzip level 9)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
