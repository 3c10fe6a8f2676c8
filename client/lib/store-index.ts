import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, unlinkSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { CE_CONTRACT, FRONTMATTER_MAX_BYTES } from "../../shared/ce/contract.js";
import { scanFrontmatter } from "../../shared/ce/frontmatter-scan.js";
import { enumerateCandidates } from "../platform/enumerate.js";
import { describeFsError, osError } from "../platform/fs.js";
import { inspectManagedRoot, managedRoots, STORE_FOLDER } from "./store.js";
import { timestampMs } from "../../shared/time/timestamps.js";
import type { Env } from "../platform/env.js";
import { repoRelative } from "../platform/paths.js";

/**
 * The managed store as a list of handoffs, and the only way anything in it is deleted. A file
 * counts as a handoff only when it is provably one: a regular file (never a symlink) owned by
 * this user, inside `<root>/ce-handoff/`, whose frontmatter says ce-handoff/v1 and has a
 * created_at. Anything else is neither listed nor deleted.
 */

export interface StoreEntry {
  path: string;
  title: string | null;
  summary: string | null;
  created_at: string;
  keywords: string[];
  bytes: number;
}

const uid = () => process.getuid?.() ?? -1;

/** Reads a file's frontmatter through a descriptor opened without following symlinks. */
export function provenHandoff(path: string): StoreEntry | string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return `cannot open it (${describeFsError(error)})`;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return "not a regular file";
    if (info.uid !== uid()) return `owned by another user (uid ${info.uid})`;
    const head = Buffer.alloc(Math.min(FRONTMATTER_MAX_BYTES, info.size));
    const length = readSync(fd, head, 0, head.length, 0);
    const scan = scanFrontmatter(head.subarray(0, length));
    if (scan.kind !== "indexed" || scan.data.artifact_contract !== CE_CONTRACT) return "no ce-handoff/v1 frontmatter";
    const created = scan.data.created_at;
    if (typeof created !== "string" || timestampMs(created) === undefined) return "no created_at in its frontmatter";
    const text = (value: unknown) => (typeof value === "string" ? value : null);
    return {
      path,
      title: text(scan.data.title),
      summary: text(scan.data.summary),
      created_at: created,
      keywords: Array.isArray(scan.data.keywords) ? scan.data.keywords.filter((k): k is string => typeof k === "string") : [],
      bytes: info.size,
    };
  } finally {
    closeSync(fd);
  }
}

/** The store folders that exist and are safe to read; unsafe ones are reported, never read. */
function storeFolders(env: Env): { folders: string[]; warnings: string[] } {
  const folders: string[] = [];
  const warnings: string[] = [];
  for (const root of managedRoots(env)) {
    const state = inspectManagedRoot(root);
    if (state === "missing") continue;
    if (state !== "ok") {
      warnings.push(state.message);
      continue;
    }
    const store = join(root, STORE_FOLDER);
    if (lstatSync(store, { throwIfNoEntry: false })?.isDirectory()) folders.push(store);
  }
  return { folders, warnings };
}

/** Every provable handoff in the managed store, newest first. */
export function listStore(env: Env): { entries: StoreEntry[]; folders: string[]; warnings: string[] } {
  const { folders, warnings } = storeFolders(env);
  const entries: StoreEntry[] = [];
  for (const folder of folders) {
    const found = enumerateCandidates(folder, { maxCandidates: 100_000 });
    if (found.truncated) warnings.push(`${folder} holds more entries than are listed`);
    found.forEach((path) => {
      const entry = provenHandoff(path);
      if (typeof entry !== "string") entries.push(entry);
    });
  }
  entries.sort((a, b) => (timestampMs(b.created_at) ?? 0) - (timestampMs(a.created_at) ?? 0) || a.path.localeCompare(b.path));
  return { entries, folders, warnings };
}

/**
 * Checks that `path` is a provable handoff inside the managed store; returns it, or why not.
 * The folder is compared by real path, so `..` or a symlinked folder cannot reach outside.
 */
export function storeHandoff(path: string, env: Env, cwd: string): StoreEntry | string {
  const absolute = resolve(cwd, path);
  if (lstatSync(absolute, { throwIfNoEntry: false }) === undefined) return "no such file";
  const { folders } = storeFolders(env);
  let parent: string;
  try {
    parent = realpathSync(join(absolute, ".."));
  } catch {
    return "its folder cannot be resolved";
  }
  const inStore = folders.some((folder) => {
    return repoRelative(realpathSync(folder), parent) !== undefined;
  });
  if (!inStore) return `not in the managed store (${folders.join(", ") || "none exists on this machine"})`;
  return provenHandoff(join(parent, absolute.slice(absolute.lastIndexOf(sep) + 1)));
}

/** Deletes entries already proven; a failure names the file and stops. */
export function deleteHandoffs(entries: StoreEntry[]): void {
  for (const entry of entries) {
    try {
      unlinkSync(entry.path);
    } catch (cause) {
      throw osError(`cannot delete ${entry.path}`, cause, "check the folder's permissions");
    }
  }
}
