import { lstat, readFile, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { checkLocalFile, localFileSchemas, type PublishedRecord } from "../../shared/local/local-files.js";

export type { PublishedRecord } from "../../shared/local/local-files.js";
import { HandoffError, type Result, err, ok } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import { isShareUrl, parseShareUrl } from "../../shared/api/share-url.js";
import { describeFsError, ensurePrivateDir, errorCode, replaceFile } from "../platform/fs.js";
import { CONFIG_DIR } from "./config-location.js";
import { recordTimestamp, timestampMs } from "../../shared/time/timestamps.js";

// What this user published: one 0600 JSON file per id under <configDir>/published (0700), so
// `handoff revoke` and `handoff published` work later. The share key is deliberately NOT kept:
// config folders get synced and backed up, and a folder of owner tokens plus keys would be a key
// ring that opens every live handoff. Owner tokens only allow revoking. docs/storage.md ("The handoff envelope").

/** What the local record can tell; views used are only known to the server (GET .../meta). */
export type PublishedState = "active" | "expired" | "revoked";

const storeDir = (configDir: string) => join(configDir, "published");
const recordPath = (configDir: string, id: string) => join(storeDir(configDir), `${id}.json`);

/** Saves (or replaces) the record for `rec.id`; returns warnings from tightening the folder's mode. */
export async function savePublished(configDir: string, rec: PublishedRecord): Promise<string[]> {
  const parsed = checkLocalFile(localFileSchemas().PublishedRecordSchema, rec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HandoffError("internal", `refusing to store a published record: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const warnings = ensurePrivateDir(storeDir(configDir), CONFIG_DIR);
  replaceFile(recordPath(configDir, parsed.data.id), `${JSON.stringify(parsed.data, null, 2)}\n`);
  return warnings;
}

/**
 * Removes the record of `id` if it is still the pending one written before a publish the server
 * refused (nothing was stored, so nothing is left to revoke). A completed record is never
 * removed; a failure to remove is only reported (a stale pending record is harmless: the server
 * answers 404 for its id).
 */
export async function forgetPending(configDir: string, id: string): Promise<string | undefined> {
  try {
    const read = await readRecord(configDir, id);
    if (!read.ok || read.value?.pending !== true) return undefined;
    await rm(recordPath(configDir, id), { force: true });
    return undefined;
  } catch (cause) {
    return `could not remove ${recordPath(configDir, id)} (${describeFsError(cause)}): it records a publish that did not happen`;
  }
}

/**
 * Every readable record, newest first. A corrupt, foreign or symlinked file is skipped with a
 * warning naming it; listing never fails because of one bad record.
 */
export async function listPublished(configDir: string): Promise<{ records: PublishedRecord[]; warnings: string[] }> {
  let names: string[];
  try {
    names = await readdir(storeDir(configDir));
  } catch (cause) {
    if (errorCode(cause) === "ENOENT") return { records: [], warnings: [] };
    throw new HandoffError("unreadable", `cannot list ${storeDir(configDir)}: ${describeFsError(cause)}`, { cause });
  }
  const records: PublishedRecord[] = [];
  const warnings: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".") || !name.endsWith(".json")) continue; // temp files of a write in progress
    const read = await readRecord(configDir, name.slice(0, -".json".length));
    if (read.ok && read.value) records.push(read.value);
    else if (!read.ok) warnings.push(`skipped ${read.error.message}`);
  }
  records.sort((a, b) => (timestampMs(b.created_at) ?? 0) - (timestampMs(a.created_at) ?? 0));
  return { records, warnings };
}

/**
 * The record for an id or a share URL (with or without its key), or undefined if this user has
 * none. A corrupt record for that id is an `invalid_document` error naming the file.
 */
export async function findPublished(configDir: string, idOrUrl: string): Promise<PublishedRecord | undefined> {
  const id = idFrom(idOrUrl);
  const read = await readRecord(configDir, id);
  if (!read.ok) throw read.error;
  return read.value;
}

/** Marks a record revoked (keeps the first revocation time); undefined if there is no record. */
export async function markRevoked(configDir: string, idOrUrl: string, now: Date = new Date()): Promise<PublishedRecord | undefined> {
  const record = await findPublished(configDir, idOrUrl);
  if (record === undefined) return undefined;
  const revoked = { ...record, revoked_at: record.revoked_at ?? recordTimestamp(now) };
  await savePublished(configDir, revoked);
  return revoked;
}

/** Revoked wins over expired: it says what the owner did. */
export function publishedState(record: PublishedRecord, now: Date = new Date()): PublishedState {
  if (record.revoked_at !== undefined) return "revoked";
  return (timestampMs(record.expires_at) ?? 0) <= now.getTime() ? "expired" : "active";
}

function idFrom(idOrUrl: string): string {
  if (isShareUrl(idOrUrl)) {
    const parsed = parseShareUrl(idOrUrl);
    if (!parsed.ok) throw parsed.error;
    return parsed.value.id;
  }
  const id = idOrUrl.trim();
  if (!isHandoffId(id)) {
    throw new HandoffError("usage", `'${id.slice(0, 80)}' is neither a share URL nor a handoff id`, {
      hint: "pass the share URL or the id that 'handoff published' lists",
    });
  }
  return id;
}

/** ok(undefined) when there is no such file; err for anything present but not a valid record. */
async function readRecord(configDir: string, id: string): Promise<Result<PublishedRecord | undefined>> {
  const path = recordPath(configDir, id);
  const corrupt = (why: string) => err(new HandoffError("invalid_document", `${path}: ${why}`, { hint: `remove ${path}; the handoff on the server is not affected` }));
  if (!isHandoffId(id)) return corrupt("the file name is not a handoff id");
  let text: string;
  try {
    const info = await lstat(path);
    if (!info.isFile()) return corrupt("not a regular file");
    if (process.platform !== "win32" && info.uid !== process.getuid?.()) return corrupt(`belongs to another user (uid ${info.uid})`);
    text = await readFile(path, "utf8");
  } catch (cause) {
    if (errorCode(cause) === "ENOENT") return ok(undefined);
    return corrupt(`cannot be read (${describeFsError(cause)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return corrupt("not valid JSON");
  }
  const parsed = checkLocalFile(localFileSchemas().PublishedRecordSchema, json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return corrupt(`not a published record (${issue?.path.join(".") || "object"}: ${issue?.message ?? "invalid"})`);
  }
  if (parsed.data.id !== id) return corrupt(`records id ${parsed.data.id}, not the id in its file name`);
  return ok(parsed.data);
}
