import { closeSync, fstatSync, lstatSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { createFirstFree, ensurePrivateDir, openOwnedDir, osError } from "../platform/fs.js";
import { readRegularFile } from "../platform/read-file.js";
import type { Env } from "../platform/env.js";

/**
 * The managed store, as the ce-handoff/v1 contract's shell block sets it up:
 * `/tmp/compound-engineering-$UID` (else `${TMPDIR:-/tmp}/compound-engineering-$UID`), then
 * `ce-handoff/<namespace>/`, folders 0700 and files 0600, never overwritten.
 *
 * Every folder check runs on the opened directory (O_DIRECTORY|O_NOFOLLOW, then fstat of that
 * descriptor), so a symlink swapped in between a check and a use cannot fool it. Below a root
 * that is ours and 0700 nobody else can create or swap entries, which is why the later plain
 * path joins are safe.
 */

/** How many `-N` suffixes a name may take before we give up (a runaway, not a real store). */
const MAX_SUFFIX = 10_000;

export const STORE_FOLDER = "ce-handoff";

/**
 * Managed roots in the order they are tried, deduplicated: `HANDOFF_ROOT` alone when set, else the
 * contract root and its `${TMPDIR:-/tmp}` fallback. Discovery searches all of them.
 *
 * @example
 * ```ts
 * managedRoots({ TMPDIR: "/var/tmp" }, 1000) // ["/tmp/compound-engineering-1000", "/var/tmp/compound-engineering-1000"]
 * ```
 */
export function managedRoots(env: Env, uid: number = currentUid()): string[] {
  if (env.HANDOFF_ROOT) return [env.HANDOFF_ROOT];
  const primary = `/tmp/compound-engineering-${uid}`;
  const tmpdir = (env.TMPDIR || "/tmp").replace(/\/+$/, "") || "/";
  const fallback = join(tmpdir, `compound-engineering-${uid}`);
  return fallback === primary ? [primary] : [primary, fallback];
}

export interface ManagedRoot {
  root: string;
  /** Said to the user: why the first root was not used. */
  warnings: string[];
}

/** The first root that can be made safe, creating it (0700) when missing. */
export function openManagedRoot(roots: string[], uid: number = currentUid()): ManagedRoot {
  const warnings: string[] = [];
  let last: HandoffError | undefined;
  for (const root of roots) {
    try {
      ensureStoreDir(root, uid);
      if (last) warnings.push(`using the fallback store ${root}: ${last.message}`);
      return { root, warnings };
    } catch (error) {
      if (!(error instanceof HandoffError)) throw error;
      last = error;
    }
  }
  throw last ?? new HandoffError("internal", "no managed store root to try");
}

/**
 * Discovery's read-only check of a root: nothing is created or repaired. "missing" roots are
 * simply not searched; a root that is a symlink, not a directory, owned by someone else, or
 * writable by others is refused (someone else could have planted candidates in it).
 */
export function inspectManagedRoot(root: string, uid: number = currentUid()): "ok" | "missing" | HandoffError {
  let fd: number | "missing";
  try {
    fd = openOwnedDir(root, uid, false, unsafe);
  } catch (error) {
    if (error instanceof HandoffError) return error;
    throw error;
  }
  if (fd === "missing") return "missing";
  try {
    const mode = fstatSync(fd).mode;
    return (mode & 0o022) !== 0 ? unsafe(`${root} is writable by others (mode ${(mode & 0o777).toString(8)})`) : "ok";
  } finally {
    closeSync(fd);
  }
}

/** `<root>/ce-handoff/<namespace>`, each level created 0700 and checked like the root. */
export function ensureHandoffDir(root: string, namespace: string, uid: number = currentUid()): string {
  const store = join(root, STORE_FOLDER);
  ensureStoreDir(store, uid);
  const dir = join(store, namespace);
  ensureStoreDir(dir, uid);
  return dir;
}

/**
 * Creates `path` (0700) if missing, then opens it without following a symlink and checks the
 * opened directory: a directory, owned by `uid`, mode fixed to 0700 (the contract's chmod 700).
 * Owned by someone else, a symlink or not a directory: refused, never repaired.
 */
export function ensureStoreDir(path: string, uid: number): void {
  ensurePrivateDir(path, { uid, refuse: unsafe });
}

/**
 * Where `--to PATH` writes: into PATH when it is an existing folder (`<stem><ext>` there), else
 * PATH itself, whose folder must exist. A PATH without an extension takes `extIfNone`.
 */
export function chosenDestination(cwd: string, to: string, stem: string, ext: string, extIfNone = ""): { dir: string; stem: string; ext: string } {
  const path = resolve(cwd, to);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return { dir: path, stem, ext };
  // resolve() drops a trailing slash; the user's "newdir/" still means a folder, never a file.
  if (/[\\/]$/.test(to)) {
    throw new HandoffError("io_failed", `cannot write into --to ${to}: the folder ${path} does not exist`, {
      hint: `create it first (mkdir -p ${path}), or pass an existing folder or a file path`,
    });
  }
  if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()) {
    throw new HandoffError("io_failed", `cannot write to --to ${path}: the folder ${dirname(path)} does not exist`, {
      hint: "create the folder first, or pass an existing folder or file path",
    });
  }
  const own = extname(path);
  return { dir: dirname(path), stem: basename(path, own), ext: own || extIfNone };
}

export interface Reserved {
  path: string;
  /** Set when the first-choice name was taken and a suffix was used. */
  takenName?: string;
  /** What was written, as UTF-8 text. */
  text: string;
}

/**
 * Writes `bytes` to `<dir>/<stem><ext>`, or the smallest free `<stem>-N<ext>`, never overwriting
 * (a symlink planted at a name counts as taken and is never followed). The write is crash-safe
 * (platform/fs.ts: a private temporary, fsynced, linked into place), and the result is read back
 * before the path is returned. `content` may be a function of the final path, for documents that
 * name their own location. A name counts as taken too while `<stem>-N<companion>` exists for one
 * of `companions`: a handoff and its changes bundle share a stem, so a bundle an interrupted
 * create left behind never sits beside a new handoff of the same name.
 */
export function writeExclusive(dir: string, stem: string, ext: string, content: Uint8Array | ((path: string) => Uint8Array), companions: readonly string[] = []): Reserved {
  const written = createFirstFree(dir, candidateNames(dir, stem, ext, companions), content);
  if (written === undefined) throw osError(`no free name for ${stem}${ext} in ${dir} after ${MAX_SUFFIX} tries`);
  const { path, bytes } = written;
  confirmContents(path, bytes);
  const text = new TextDecoder().decode(bytes);
  return path === join(dir, `${stem}${ext}`) ? { path, text } : { path, text, takenName: join(dir, `${stem}${ext}`) };
}

function* candidateNames(dir: string, stem: string, ext: string, companions: readonly string[]): Generator<string> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const base = n === 1 ? stem : `${stem}-${n}`;
    if (companions.some((companion) => lstatSync(join(dir, `${base}${companion}`), { throwIfNoEntry: false }) !== undefined)) continue;
    yield `${base}${ext}`;
  }
}

/** Creation is complete only once the destination is seen to hold exactly our bytes. */
function confirmContents(path: string, expected: Uint8Array): void {
  const actual = readRegularFile(path, expected.length, { what: "the new handoff", noFollow: true });
  if (actual === "too_large" || actual.length !== expected.length || !actual.every((byte, i) => byte === expected[i])) {
    throw osError(`${path} does not hold what was written`);
  }
}

function currentUid(): number {
  return process.getuid?.() ?? -1;
}

function unsafe(message: string, cause?: unknown): HandoffError {
  return new HandoffError("unsafe_store", `unsafe managed store: ${message}`, {
    hint: "remove or fix that folder (it must be a real directory you own), or set HANDOFF_ROOT to a private folder",
    cause,
  });
}
