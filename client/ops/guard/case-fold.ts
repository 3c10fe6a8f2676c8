import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Whether the volume holding `dir` compares names without case (APFS and NTFS by default, FAT,
 * ext4 with casefold): there `SECRETS/prod.env` opens `secrets/prod.env`, so the guard must fold
 * case before matching forbidden globs. Found by asking the volume, never by the OS: a known entry
 * (`dir/.git`, else `dir` itself) is looked up again with its letters' case swapped, and the
 * volume ignores case when both names lead to the same file. Asked once per folder per run.
 */
export function volumeIgnoresCase(dir: string): boolean {
  let known = cache.get(dir);
  if (known === undefined) {
    known = probe(join(dir, ".git")) ?? probe(dir) ?? false;
    cache.set(dir, known);
  }
  return known;
}

const cache = new Map<string, boolean>();

/** undefined when `path` cannot tell (it does not exist, or its name has no letters). */
function probe(path: string): boolean | undefined {
  const name = basename(path);
  const swapped = [...name].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join("");
  if (swapped === name || dirname(path) === path) return undefined;
  try {
    const original = statSync(path, { throwIfNoEntry: false });
    if (original === undefined) return undefined;
    const other = statSync(join(dirname(path), swapped), { throwIfNoEntry: false });
    return other !== undefined && other.ino === original.ino && other.dev === original.dev;
  } catch {
    return undefined;
  }
}
