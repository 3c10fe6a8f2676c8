import { createHash } from "node:crypto";
import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { OpenedCopyRecord } from "../../shared/local/local-files.js";
import { timestampMs } from "../../shared/time/timestamps.js";
import type { Env } from "../platform/env.js";
import { replaceFile } from "../platform/fs.js";
import { readRegularFile } from "../platform/read-file.js";
import { ensureStoreDir, inspectManagedRoot, managedRoots, openManagedRoot } from "./store.js";

/**
 * Share links `resume` opened, kept decrypted on this machine so that reading the same link again
 * (the preview, then the fix the orientation names, then the apply) spends no second view: one
 * file per link, `<store root>/opened/<id>.json`, 0600 in a 0700 folder of the managed store,
 * kept for the link's remaining lifetime and a day at most. Only the link itself opens it (the
 * file holds a digest of the link's key, never the key), it is deleted by the first read after
 * it expires, and `handoff rm` / `prune` delete it like a handoff (store-index.ts).
 * Layout: docs/storage.md ("Opened share links").
 */

export const OPENED_FOLDER = "opened";

/** How long a copy is kept at most, whatever the link's own expiry. */
export const OPENED_KEEP_MS = 24 * 60 * 60 * 1000;

/** A record is a document and its bundle in base64: well under this. */
const RECORD_LIMIT = 4 * 1024 * 1024;

export interface OpenedCopy {
  path: string;
  opened_at: string;
  keep_until: string;
  views_left: number | null;
  document: Uint8Array;
  changes?: Uint8Array;
}

/** The link a copy belongs to: server, id and key, digested (the key itself is never written). */
function linkDigest(server: string, id: string, key: string): string {
  return createHash("sha256").update(`${server}/h/${id}#${key}`).digest("hex");
}

/**
 * The kept copy of the link `server/h/id#key`, if this machine has one that has not expired; an
 * expired one is deleted on the way. A copy that cannot be read or does not belong to this key
 * is ignored (the link is then read from the server as usual).
 */
export async function readOpenedCopy(env: Env, server: string, id: string, key: string, now: Date): Promise<OpenedCopy | undefined> {
  for (const folder of openedFolders(env)) {
    const path = join(folder, `${id}.json`);
    const head = openedRecordHead(path);
    if (head === undefined) continue;
    if (head.keepUntilMs <= now.getTime()) {
      removeQuietly(path);
      continue;
    }
    const record = await readRecord(path);
    if (record === undefined || record.server !== server || record.id !== id || record.key_sha256 !== linkDigest(server, id, key)) continue;
    return {
      path,
      opened_at: record.opened_at,
      keep_until: record.keep_until,
      views_left: record.views_left,
      document: new Uint8Array(Buffer.from(record.document, "base64")),
      ...(record.changes === undefined ? {} : { changes: new Uint8Array(Buffer.from(record.changes, "base64")) }),
    };
  }
  return undefined;
}

/**
 * Keeps what a read of `server/h/id#key` returned, until `expiresAt` (the link's own expiry, when
 * known) or a day from `now`, whichever comes first. Returns the copy as written.
 */
export function keepOpenedCopy(
  env: Env,
  link: { server: string; id: string; key: string },
  read: { document: Uint8Array; changes?: Uint8Array; views_left: number | null },
  now: Date,
  expiresAt?: string,
): OpenedCopy {
  const { root } = openManagedRoot(managedRoots(env));
  const folder = join(root, OPENED_FOLDER);
  ensureStoreDir(folder, process.getuid?.() ?? -1);
  const limit = now.getTime() + OPENED_KEEP_MS;
  const expiry = expiresAt === undefined ? undefined : timestampMs(expiresAt);
  const keepUntil = new Date(expiry === undefined ? limit : Math.min(limit, expiry)).toISOString();
  const record: OpenedCopyRecord = {
    format: "handoff-opened/v1",
    id: link.id,
    server: link.server,
    key_sha256: linkDigest(link.server, link.id, link.key),
    opened_at: now.toISOString(),
    keep_until: keepUntil,
    views_left: read.views_left,
    document: Buffer.from(read.document).toString("base64"),
    ...(read.changes ? { changes: Buffer.from(read.changes).toString("base64") } : {}),
  };
  const path = join(folder, `${link.id}.json`);
  replaceFile(path, `${JSON.stringify(record)}\n`, 0o600);
  return { path, opened_at: record.opened_at, keep_until: keepUntil, views_left: read.views_left, document: read.document, ...(read.changes ? { changes: read.changes } : {}) };
}

/** Deletes a kept copy (its link was revoked or is gone); one already gone is no failure. */
export function dropOpenedCopy(path: string): void {
  removeQuietly(path);
}

/** Deletes every kept copy whose time is up. */
export function sweepOpenedCopies(env: Env, now: Date): void {
  for (const folder of openedFolders(env)) {
    for (const name of readdirSafe(folder)) {
      const head = name.endsWith(".json") ? openedRecordHead(join(folder, name)) : undefined;
      if (head !== undefined && head.keepUntilMs <= now.getTime()) removeQuietly(join(folder, name));
    }
  }
}

/** What the store's listing needs of a kept copy, read without the schema library: which link, when, until when. */
export interface OpenedRecordHead {
  id: string;
  server: string;
  opened_at: string;
  keep_until: string;
  keepUntilMs: number;
  bytes: number;
}

/**
 * A kept copy's identifying fields, when `path` is one (a regular file of ours whose JSON says
 * `handoff-opened/v1` with parseable times); else undefined. Its contents are checked in full
 * (the schema) only when read.
 */
export function openedRecordHead(path: string): OpenedRecordHead | undefined {
  const value = readJson(path);
  if (typeof value !== "object" || value === null) return undefined;
  const { format, id, server, opened_at, keep_until } = value as Record<string, unknown>;
  if (format !== "handoff-opened/v1" || typeof id !== "string" || typeof server !== "string" || typeof opened_at !== "string" || typeof keep_until !== "string") return undefined;
  const keepUntilMs = timestampMs(keep_until);
  if (keepUntilMs === undefined || timestampMs(opened_at) === undefined) return undefined;
  return { id, server, opened_at, keep_until, keepUntilMs, bytes: lstatSync(path).size };
}

/** A kept copy's whole record, checked against its schema; undefined when it is not one. */
async function readRecord(path: string): Promise<OpenedCopyRecord | undefined> {
  const value = readJson(path);
  if (value === undefined) return undefined;
  const { checkLocalFile, localFileSchemas } = await import("../../shared/local/local-files.js");
  const parsed = checkLocalFile(localFileSchemas().OpenedCopySchema, value);
  return parsed.success ? parsed.data : undefined;
}

/** The JSON in `path` when it is a regular file of ours within the record limit; else undefined. */
function readJson(path: string): unknown {
  let bytes: Uint8Array | "too_large";
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.uid !== (process.getuid?.() ?? stat.uid)) return undefined;
    bytes = readRegularFile(path, RECORD_LIMIT, { what: "a kept share link", noFollow: true });
  } catch {
    return undefined;
  }
  if (bytes === "too_large") return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** `<root>/opened` of every managed root that is safe to read and has one. */
export function openedFolders(env: Env): string[] {
  return managedRoots(env)
    .filter((root) => inspectManagedRoot(root) === "ok")
    .map((root) => join(root, OPENED_FOLDER))
    .filter((folder) => {
      const stat = lstatSync(folder, { throwIfNoEntry: false });
      return stat?.isDirectory() === true && (stat.mode & 0o077) === 0 && stat.uid === (process.getuid?.() ?? stat.uid);
    });
}

function readdirSafe(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already, or not ours to remove: either way it is not read.
  }
}
