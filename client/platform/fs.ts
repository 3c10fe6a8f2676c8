import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { HandoffError } from "../../shared/errors.js";

// The CLI's one way to put a file on disk. Every write goes to a private temporary name in the
// destination's own folder, is fsynced, and only then gets its final name: by link() for a new
// file (which fails on an existing name, so nothing is ever overwritten) or by rename() for a
// replacement. A process killed at any point leaves the final name absent, or whole; what it can
// leave is a temporary, which every reader skips by name and the next write into that folder
// removes once it is stale (docs/storage.md, "Temporary files").

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY } = constants;
const POSIX = process.platform !== "win32";
const lazyRequire = createRequire(import.meta.url);

/** `.<final name>.<12 hex>.handoff-tmp`: hidden, and no handoff extension, so no reader lists it. */
const TEMP_SUFFIX = ".handoff-tmp";
const TEMP_NAME = /^\..*\.[0-9a-f]{12}\.handoff-tmp$/;
/** A temporary older than this is a crashed writer's, never a live one's: writes take milliseconds. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** The bytes to write, or a function of the final path (documents that name their own location). */
export type Content = string | Uint8Array | ((path: string) => Uint8Array);

/** Whether `name` is one of our temporaries (readers skip these). */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Creates the first free name of `names` in `dir` with `content`, never overwriting anything: a
 * name that exists (a file, a folder, a symlink, dangling or not) is skipped and never followed.
 * Returns the path won and its bytes, or undefined when every name was taken. Killed at any
 * point, it leaves each name absent or whole (see above). Stale temporaries in `dir` go first.
 */
export function createFirstFree(dir: string, names: Iterable<string>, content: Content, mode = 0o600): { path: string; bytes: Uint8Array } | undefined {
  removeStaleTemps(dir);
  let temp: string | undefined;
  let bytes: Uint8Array | undefined;
  try {
    for (const name of names) {
      const path = join(dir, name);
      // A cheap skip first, so a content function only runs for a name that may still be free.
      if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) continue;
      if (temp === undefined || typeof content === "function") {
        if (temp !== undefined) unlinkQuietly(temp);
        temp = undefined;
        bytes = toBytes(content, path);
        temp = writeTemp(dir, name, bytes, mode);
      }
      const placed = linkInto(temp, path);
      if (placed === "taken") continue;
      if (placed === "unsupported" && !copyExclusive(path, bytes as Uint8Array, mode)) continue;
      unlinkQuietly(temp);
      temp = undefined;
      syncDir(dir);
      return { path, bytes: bytes as Uint8Array };
    }
    return undefined;
  } finally {
    if (temp !== undefined) unlinkQuietly(temp);
  }
}

/** Creates `path` with `content` unless the name exists ("exists": nothing was touched). */
export function createFile(path: string, content: Content, mode = 0o600): "created" | "exists" {
  return createFirstFree(dirname(path), [basename(path)], content, mode) === undefined ? "exists" : "created";
}

/**
 * Replaces `path` (or creates it) with `content` atomically: a reader sees the old file or the
 * new one, never half of one. The folder must exist.
 */
export function replaceFile(path: string, content: Content, mode = 0o600): void {
  const dir = dirname(path);
  let temp: string | undefined;
  try {
    temp = writeTemp(dir, basename(path), toBytes(content, path), mode);
    renameSync(temp, path);
    temp = undefined;
    syncDir(dir);
  } catch (cause) {
    if (cause instanceof HandoffError) throw cause;
    throw osError(`cannot write ${path}`, cause);
  } finally {
    if (temp !== undefined) unlinkQuietly(temp);
  }
}

/**
 * Makes `path` exist as a folder this user owns and nobody else can list, checked on the opened
 * descriptor, so a folder swapped after a check cannot slip past. A missing folder is created
 * 0700; a looser mode is set to 0700 (and reported in the returned warnings when others could
 * get in). A folder owned by someone else, a non-folder, or (unless `followSymlink`) a symlink
 * is refused, never repaired.
 */
export function ensurePrivateDir(path: string, options: PrivateDirOptions = {}): string[] {
  const uid = options.uid ?? process.getuid?.() ?? -1;
  const refuse = options.refuse ?? ((message: string, cause?: unknown) => new HandoffError("unsafe_store", message, { hint: "move it away, or use a folder you own", cause }));
  try {
    mkdirSync(path, { mode: 0o700, recursive: options.parents === true });
  } catch (cause) {
    if (errorCode(cause) !== "EEXIST") throw osError(`cannot create the folder ${path}`, cause);
  }
  const fd = openOwnedDir(path, uid, options.followSymlink === true, refuse);
  if (fd === "missing") throw osError(`the folder ${path} disappeared while it was being opened`);
  try {
    if (!POSIX) return [];
    const mode = fstatSync(fd).mode & 0o777;
    if (mode === 0o700) return [];
    fchmodSync(fd, 0o700);
    return (mode & 0o077) === 0 ? [] : [`${path} was open to other users (mode ${octal(mode)}); changed it to 0700`];
  } finally {
    closeSync(fd);
  }
}

export interface PrivateDirOptions {
  uid?: number;
  /** Create missing parent folders too (0700). */
  parents?: boolean;
  /** Check the folder a symlink at `path` leads to instead of refusing it (a config folder kept with dotfiles). */
  followSymlink?: boolean;
  /** How a refusal is worded: what to do about it depends on whose folder it is. */
  refuse?: (message: string, cause?: unknown) => HandoffError;
}

/**
 * Opens `path` as a directory (without following a symlink unless `follow`) and checks the opened
 * directory, not the path: a real directory owned by `uid`. The caller closes the descriptor;
 * "missing" when nothing is there.
 */
export function openOwnedDir(path: string, uid: number, follow: boolean, refuse: (message: string, cause?: unknown) => HandoffError): number | "missing" {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW));
  } catch (cause) {
    const code = errorCode(cause);
    if (code === "ENOENT") return "missing";
    // Linux answers ENOTDIR or ELOOP for a symlink here; lstat only words the refusal, it decides nothing.
    if (code === "ELOOP" || code === "ENOTDIR") {
      throw refuse(`${path} is ${lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? "a symlink" : "not a directory"}`, cause);
    }
    throw osError(`cannot open the folder ${path}`, cause);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isDirectory()) throw refuse(`${path} is not a directory`);
    if (POSIX && stat.uid !== uid) throw refuse(`${path} is owned by uid ${stat.uid}, not by you (uid ${uid})`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** An OS error in plain words: "no such file", "permission denied", ... */
export function describeFsError(cause: unknown): string {
  const code = errorCode(cause);
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a folder, not a file";
    case "ELOOP":
      return "it is a symlink, which is not followed here";
    case "ENOTDIR":
      return "a part of the path is not a folder";
    case "EEXIST":
      return "it already exists";
    case "ENOSPC":
    case "EDQUOT":
      return "no space left on the device";
    case "EROFS":
      return "the file system is read-only";
    default:
      return code ?? (cause instanceof Error ? cause.message : String(cause));
  }
}

/** The one wording of a failed file operation: what failed, why in plain words, what to check. */
export function osError(message: string, cause?: unknown, hint = "check that the folder exists, is writable and has free space"): HandoffError {
  return new HandoffError("io_failed", cause === undefined ? message : `${message}: ${describeFsError(cause)}`, { hint, cause });
}

/** The errno code of a failed OS call ("ENOENT"), if it has one. */
export function errorCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** `0644`-style spelling of a mode's permission bits, for messages. */
export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

function toBytes(content: Content, path: string): Uint8Array {
  const value = typeof content === "function" ? content(path) : content;
  return typeof value === "string" ? new TextEncoder().encode(value) : value;
}

/**
 * 12 random hex digits for a temporary's name, from the kernel's random source. Loading
 * node:crypto for six bytes cost every create about 7 ms of CPU (Node 20: its module and the
 * crypto internals it pulls in); reading /dev/urandom costs two system calls. Where there is no
 * /dev/urandom (Windows), node:crypto, loaded then.
 */
function randomHex(): string {
  const bytes = Buffer.alloc(6);
  let fd: number | undefined;
  try {
    fd = openSync("/dev/urandom", O_RDONLY);
    if (readSync(fd, bytes, 0, 6, null) === 6) return bytes.toString("hex");
  } catch {
    // No /dev/urandom here: node:crypto below.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return (lazyRequire("node:crypto") as typeof import("node:crypto")).randomBytes(6).toString("hex");
}

/** A new private temporary beside `name`, written whole and fsynced; removed again on any failure. */
function writeTemp(dir: string, name: string, bytes: Uint8Array, mode: number): string {
  const temp = join(dir, `.${name}.${randomHex()}${TEMP_SUFFIX}`);
  let fd: number;
  try {
    // 0600 while it is being written, whatever the final mode: nobody reads a file in the making.
    fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (cause) {
    throw osError(`cannot create a file in ${dir}`, cause);
  }
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    if (mode !== 0o600 && POSIX) fchmodSync(fd, mode);
    fsyncSync(fd);
  } catch (cause) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw osError(`cannot write ${join(dir, name)}`, cause);
  }
  closeSync(fd);
  return temp;
}

/** Errors of a file system that has no hard links (FAT, some network and FUSE mounts). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

/** link(2) the finished temporary to `path`: "taken" when the name exists (never followed or replaced). */
function linkInto(temp: string, path: string): "linked" | "taken" | "unsupported" {
  try {
    linkSync(temp, path);
    return "linked";
  } catch (cause) {
    const code = errorCode(cause);
    if (code === "EEXIST") return "taken";
    if (code !== undefined && NO_HARD_LINKS.has(code)) return "unsupported";
    throw osError(`cannot create ${path}`, cause);
  }
}

/**
 * Where hard links do not exist: reserve the name with O_EXCL and write into it. Still never
 * overwrites; only here can a writer killed mid-write leave a partial file (docs/storage.md).
 */
function copyExclusive(path: string, bytes: Uint8Array, mode: number): boolean {
  let fd: number;
  try {
    fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  } catch (cause) {
    if (errorCode(cause) === "EEXIST") return false;
    throw osError(`cannot create ${path}`, cause);
  }
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (cause) {
    closeSync(fd);
    unlinkQuietly(path);
    throw osError(`cannot write ${path}`, cause);
  }
  closeSync(fd);
  return true;
}

/** Makes a new name durable: the entry lives in the folder, so the folder is synced too. */
function syncDir(dir: string): void {
  if (!POSIX) return;
  let fd: number | undefined;
  try {
    fd = openSync(dir, O_RDONLY | O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to sync a folder; the file itself is already synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes our temporaries in `dir` that a killed writer left (older than STALE_TEMP_MS, ours, files). */
function removeStaleTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const cutoff = Date.now() - STALE_TEMP_MS;
  const uid = process.getuid?.();
  for (const name of names) {
    if (!isTempName(name)) continue;
    const stat = lstatSync(join(dir, name), { throwIfNoEntry: false });
    if (stat?.isFile() && stat.mtimeMs < cutoff && (uid === undefined || stat.uid === uid)) unlinkQuietly(join(dir, name));
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to clean up.
  }
}
