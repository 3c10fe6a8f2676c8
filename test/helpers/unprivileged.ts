import { chmodSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Permission-denied cases that hold as root too. Root reads a mode-000 file anyway, and CI runs
 * as root, so there the CLI under test runs as `nobody` (setpriv, from util-linux), in a folder
 * that user may enter; for anyone else it runs as they are. Either way the kernel refuses the
 * read, as it would refuse a user's.
 */

const NOBODY = "65534";
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

/** `[file, args]` that run `file args` without the right to read what its owner may not: as `nobody` under root, unchanged otherwise. */
export function unprivileged(file: string, args: string[]): [string, string[]] {
  if (!RUNNING_AS_ROOT) return [file, args];
  return ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--", file, ...args]];
}

/**
 * A fresh folder under the run's TMPDIR that the unprivileged CLI may enter and list (mode 0755),
 * for the file it must fail to read. Under root the folders above it up to the temp root get the
 * search bit for others (listing stays the owner's), so `nobody` can reach it.
 */
export function unprivilegedDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  if (RUNNING_AS_ROOT) {
    const top = dirname(tmpdir());
    for (let at = dirname(dir); at.startsWith(top) && at !== top; at = dirname(at)) {
      const mode = statSync(at).mode & 0o7777;
      if ((mode & 0o001) === 0) chmodSync(at, mode | 0o001);
    }
  }
  return dir;
}
