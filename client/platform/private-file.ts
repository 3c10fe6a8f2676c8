import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { HandoffError } from "../../shared/errors.js";

// Files only this user may read (config with tokens, owner tokens), written so that a crash or a
// full disk leaves either the old file or the new one, never half of one.

const POSIX = process.platform !== "win32";

/**
 * node:fs/promises, loaded by the first write: it brings Node's stream and readline modules, about
 * 2 ms of a start-up, and every command's start-up reaches this module (through the config module)
 * while few write a private file.
 */
const fsp = () => import("node:fs/promises");

/**
 * Makes `dir` (and missing parents, 0700) exist as a directory this user owns and nobody else can
 * list; a looser mode on it is tightened to 0700 and reported in the returned warnings.
 */
export async function ensurePrivateDir(dir: string): Promise<string[]> {
  const { chmod, mkdir, stat } = await fsp();
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new HandoffError("io_failed", `cannot create the folder ${dir}: ${(cause as NodeJS.ErrnoException).code ?? cause}`, { cause });
  }
  const info = await stat(dir);
  if (!info.isDirectory()) throw new HandoffError("unsafe_store", `${dir} is not a folder`, { hint: "move it away and run the command again" });
  if (!POSIX) return [];
  if (info.uid !== process.getuid?.()) {
    throw new HandoffError("unsafe_store", `${dir} belongs to another user (uid ${info.uid})`, { hint: "use a config folder you own (XDG_CONFIG_HOME)" });
  }
  if ((info.mode & 0o077) === 0) return [];
  await chmod(dir, 0o700);
  return [`${dir} was open to other users (mode ${octal(info.mode)}); changed it to 0700`];
}

/**
 * Writes `data` to `path` with mode 0600 via a temporary file in the same folder and a rename,
 * replacing any existing file atomically. The folder must exist.
 */
export async function writePrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  const { rename, unlink } = await fsp();
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeNewPrivateFile(temp, data);
    await rename(temp, path);
  } catch (cause) {
    await unlink(temp).catch(() => undefined);
    throw new HandoffError("io_failed", `cannot write ${path}: ${(cause as NodeJS.ErrnoException).code ?? cause}`, { cause });
  }
}

/**
 * Creates `path` (mode 0600) and writes `data`, synced. "wx" is O_CREAT|O_EXCL: an existing file,
 * or a symlink planted at the name, is never followed or replaced (EEXIST is thrown as is, for
 * the caller to name). A half-written file is removed: it is ours, it was just created.
 */
export async function writeNewPrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  const { open, unlink } = await fsp();
  const handle = await open(path, "wx", 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (cause) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw cause;
  }
  await handle.close();
}

/** `0644`-style spelling of a mode's permission bits, for messages. */
export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}
