import { mkdirSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { kernelManifestFileName } from "../../shared/kernel/build.js";
import { assertInsideRepository } from "./kernel-paths.js";
import { chosenDestination } from "./store.js";

/**
 * Where a kernel document goes: `<repo>/<folder>/<name>-<date>.json`, or the user's --to.
 * Shared by `create --format kernel` and `checkpoint`; the folder is made separately
 * (makeKernelDir), so a document that fails validation leaves nothing behind.
 */
export function kernelTarget(options: { to?: string | undefined; cwd: string }, toplevel: string, folder: string, name: string, now: Date) {
  const fileName = kernelManifestFileName(name, now);
  const ext = extname(fileName);
  if (options.to === undefined) return { dir: resolve(toplevel, folder), stem: basename(fileName, ext), ext };
  return chosenDestination(options.cwd, options.to, basename(fileName, ext), ext, ".json");
}

export function makeKernelDir(dir: string, toplevel: string): void {
  assertInsideRepository(dir, toplevel);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (cause) {
    throw new HandoffError("io_failed", `cannot create ${dir}`, { hint: "check the repository folder's permissions, or pass --to", cause });
  }
}
