import { chmodSync, cpSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Permission-denied cases that hold as root too. Root reads a mode-000 file anyway, and CI runs
 * as root, so there the CLI under test runs as `nobody` (setpriv, from util-linux), from a copy of
 * the built CLI in a folder that user may enter (the clone itself may sit in a folder only root
 * can enter); for anyone else it runs as they are, from the checkout. Either way the kernel
 * refuses the read, as it would refuse a user's.
 */

const NOBODY = "65534";
const RUNNING_AS_ROOT = process.getuid?.() === 0;
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A fresh folder under the run's TMPDIR that the unprivileged CLI may enter and list (mode 0755),
 * for the file it must fail to read. Under root the run's folder gets the search bit for others
 * (listing stays the owner's); a folder above it that others cannot enter is an error that names it.
 */
export function unprivilegedDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  if (!RUNNING_AS_ROOT) return dir;
  const ours = dirname(tmpdir());
  for (let at = dirname(dir); at !== dirname(at); at = dirname(at)) {
    const mode = statSync(at).mode & 0o7777;
    if ((mode & 0o001) !== 0) continue;
    if (!at.startsWith(ours) || at === ours) throw new Error(`the unprivileged user cannot enter ${at} (mode ${mode.toString(8)}): run the tests with TMPDIR in a folder others may enter`);
    chmodSync(at, mode | 0o001);
  }
  return dir;
}

/** `[file, args]` that run the built CLI with `args`, unprivileged: as `nobody` from a copy inside `dir` under root, unchanged otherwise. */
export function unprivilegedCli(dir: string, args: string[]): [string, string[]] {
  if (!RUNNING_AS_ROOT) return [process.execPath, [join(repoRoot, "bin", "handoff.cjs"), ...args]];
  const copy = join(dir, ".cli");
  for (const part of ["bin/handoff.cjs", "dist", "package.json"]) cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
  return ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--", process.execPath, join(copy, "bin", "handoff.cjs"), ...args]];
}
