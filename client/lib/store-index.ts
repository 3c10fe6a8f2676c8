import { closeSync, constants, type Dirent, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, unlinkSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { CHANGES_MAGIC } from "../../shared/changes/magic.js";
import { openedFolders, openedRecordHead, sweepOpenedCopies } from "./opened-copy.js";
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
  /**
   * The changes bundle beside it that its frontmatter names (create --with-changes): deleted with
   * it. On an entry that is itself a bundle no handoff names (an interrupted create), absent.
   */
  changes?: string;
  /**
   * What the entry is, when it is not a handoff: a changes bundle no handoff names, or a share
   * link resume opened and keeps decrypted (lib/opened-copy.ts), deleted at `keep_until` anyway.
   */
  kind?: "orphan_changes" | "opened_copy";
  keep_until?: string;
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
    const bundle = bundleBeside(path, scan.data.changes);
    return {
      path,
      title: text(scan.data.title),
      summary: text(scan.data.summary),
      created_at: created,
      keywords: Array.isArray(scan.data.keywords) ? scan.data.keywords.filter((k): k is string => typeof k === "string") : [],
      bytes: info.size,
      ...(bundle ? { changes: bundle } : {}),
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bundle a handoff's `changes` key names, when it is a bare `*.changes` name of a provable
 * bundle beside it (regular, ours, with the bundle's marker): what deleting the handoff deletes too.
 */
function bundleBeside(path: string, named: unknown): string | undefined {
  if (typeof named !== "string" || !/^[^/\\\0]+\.changes$/.test(named) || named.startsWith(".")) return undefined;
  const bundle = join(dirname(path), named);
  return provenBundle(bundle) === undefined ? undefined : bundle;
}

/** A regular file of ours that starts with the changes bundle's marker: its size and modification time. */
function provenBundle(path: string): { bytes: number; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.uid !== uid()) return undefined;
    const head = Buffer.alloc(CHANGES_MAGIC.length);
    if (readSync(fd, head, 0, head.length, 0) !== head.length || !head.equals(Buffer.from(CHANGES_MAGIC))) return undefined;
    return { bytes: info.size, mtimeMs: info.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Bundles in the store's folders that no handoff there names: what a create stopped between
 * writing the bundle and writing its handoff leaves. Listed so prune can delete them by age; never
 * taken for another handoff's bundle (lib/changes/beside.ts, writeExclusive's companions).
 */
function orphanBundles(entries: StoreEntry[], folders: string[]): StoreEntry[] {
  const named = new Set(entries.flatMap((e) => (e.changes ? [e.changes] : [])));
  const orphans: StoreEntry[] = [];
  const visit = (dir: string, depth: number) => {
    let names: Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const dirent of names) {
      const path = join(dir, dirent.name);
      if (dirent.isDirectory() && depth < 4) visit(path, depth + 1);
      if (!dirent.isFile() || !dirent.name.endsWith(".changes") || named.has(path)) continue;
      const bundle = provenBundle(path);
      if (bundle === undefined) continue;
      const title = "(a changes bundle no handoff names: left by an interrupted create)";
      orphans.push({ path, title, summary: null, created_at: new Date(bundle.mtimeMs).toISOString(), keywords: [], bytes: bundle.bytes, kind: "orphan_changes" });
    }
  };
  for (const folder of folders) visit(folder, 0);
  return orphans;
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

/** A kept copy of an opened share link as a store entry (rm and prune delete it like a handoff). */
function openedEntry(path: string): StoreEntry | undefined {
  const head = openedRecordHead(path);
  if (head === undefined) return undefined;
  const title = `Opened share link ${head.server}/h/${head.id} (kept decrypted until ${head.keep_until})`;
  return { path, title, summary: null, created_at: head.opened_at, keywords: [], bytes: head.bytes, kind: "opened_copy", keep_until: head.keep_until };
}

/**
 * Every provable handoff in the managed store, newest first, with the bundles no handoff names
 * and the opened share links kept decrypted (a kept link whose time is up is deleted first).
 */
export function listStore(env: Env): { entries: StoreEntry[]; folders: string[]; warnings: string[] } {
  const { folders, warnings } = storeFolders(env);
  sweepOpenedCopies(env, new Date());
  const entries: StoreEntry[] = [];
  for (const folder of folders) {
    const found = enumerateCandidates(folder, { maxCandidates: 100_000 });
    if (found.truncated) warnings.push(`${folder} holds more entries than are listed`);
    found.forEach((path) => {
      const entry = provenHandoff(path);
      if (typeof entry !== "string") entries.push(entry);
    });
  }
  entries.push(...orphanBundles(entries, folders));
  for (const folder of openedFolders(env)) {
    for (const name of readdirSync(folder)) {
      const entry = name.endsWith(".json") ? openedEntry(join(folder, name)) : undefined;
      if (entry) entries.push(entry);
    }
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
  const name = absolute.slice(absolute.lastIndexOf(sep) + 1);
  if (openedFolders(env).some((folder) => realpathSync(folder) === parent)) return openedEntry(join(parent, name)) ?? "not a kept copy of an opened share link";
  const inStore = folders.some((folder) => {
    return repoRelative(realpathSync(folder), parent) !== undefined;
  });
  if (!inStore) return `not in the managed store (${folders.join(", ") || "none exists on this machine"})`;
  return provenHandoff(join(parent, name));
}

/**
 * Deletes entries already proven, each handoff with the changes bundle it names (a bundle already
 * gone is no failure); a failure names the file and stops.
 */
export function deleteHandoffs(entries: StoreEntry[]): void {
  for (const entry of entries) {
    for (const path of [entry.path, ...(entry.changes ? [entry.changes] : [])]) {
      try {
        unlinkSync(path);
      } catch (cause) {
        if (path === entry.changes && (cause as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw osError(`cannot delete ${path}`, cause, "check the folder's permissions");
      }
    }
  }
}
