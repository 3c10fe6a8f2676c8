import { closeSync, constants, existsSync, fsyncSync, openSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { partialRealpath } from "../platform/paths.js";
import { mainWorktreeOf } from "../platform/work-tree.js";

/**
 * The guard's state files, the same ones kernel's reference runtime uses, so either tool's guard
 * honours either tool's activation:
 *   <root>/_meta/.active-manifest.json  the pointer: {manifest, schema, mode, forbidden, allowlist, activated}
 *   <root>/_meta/.context-ledger        bounded mode: one JSON record per line, {path, reason, ts}
 * This module is part of the guard's start-up path: node built-ins and no zod, by design.
 */

export const POINTER_PATH = "_meta/.active-manifest.json";
export const LEDGER_PATH = "_meta/.context-ledger";
export const GUARD_MODES = ["sealed", "bounded", "advisory"] as const;
export type GuardMode = (typeof GUARD_MODES)[number];

export interface ActivePointer {
  manifest: string;
  schema: string;
  mode: GuardMode;
  forbidden: string[];
  allowlist: string[];
  activated: string;
}

export interface LedgerEntry {
  path: string;
  reason?: string;
  estimated_tokens?: number;
  ts?: string;
}

/** What the reference writes as the reason for a bounded read nobody justified yet. */
export const UNSTATED_REASON = "unstated (agent must justify in receipt)";

/** The nearest folder at or above `start` that holds `.git` (a folder, or a worktree's file). */
export function gitToplevelOf(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The root whose `_meta/` holds the state, found as the reference finds it: the repository's
 * toplevel when a pointer is there, else the nearest folder above `cwd` that has a pointer, else
 * the toplevel (or `cwd`). Found without running git: this runs on every tool call.
 */
export function findGuardRoot(cwd: string): string {
  return findGuardScope(cwd).root;
}

/**
 * findGuardRoot's root, and the work tree `cwd` is in (`top`, what its paths are relative to). A
 * linked worktree (its `.git` a file) honours its main worktree's manifest when it has none of its
 * own: `root` is then the main worktree and `top` the linked one.
 */
export function findGuardScope(cwd: string): { root: string; top: string } {
  const top = gitToplevelOf(cwd);
  const base = top ?? cwd;
  if (!existsSync(join(base, POINTER_PATH))) {
    const main = top === undefined ? undefined : mainWorktreeOf(top);
    if (main !== undefined && existsSync(join(main, POINTER_PATH))) return { root: partialRealpath(main), top: partialRealpath(base) };
    for (let dir = cwd; ; dir = dirname(dir)) {
      if (existsSync(join(dir, POINTER_PATH))) {
        const root = partialRealpath(dir);
        return { root, top: root };
      }
      if (dirname(dir) === dir) break;
    }
  }
  const root = partialRealpath(base);
  return { root, top: root };
}

/**
 * Reads a pointer's JSON text into its fields; a string says why it cannot be trusted (the guard
 * then fails closed). Unknown keys are ignored: the pointer belongs to whichever tool wrote it.
 */
export function parsePointer(text: string): ActivePointer | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return `not JSON (${cause instanceof Error ? cause.message : String(cause)})`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const record = value as Record<string, unknown>;
  const mode = record.mode;
  if (typeof mode !== "string" || mode === "") return "it names no mode";
  if (!(GUARD_MODES as readonly string[]).includes(mode)) return `unknown mode '${mode}'`;
  const strings = (key: string): string[] | string => {
    const list = record[key] ?? [];
    return Array.isArray(list) && list.every((item) => typeof item === "string") ? list.filter((item) => item !== "") : `${key} is not a list of strings`;
  };
  const forbidden = strings("forbidden");
  if (typeof forbidden === "string") return forbidden;
  const allowlist = strings("allowlist");
  if (typeof allowlist === "string") return allowlist;
  return {
    manifest: typeof record.manifest === "string" ? record.manifest : "(unnamed)",
    schema: typeof record.schema === "string" ? record.schema : "",
    mode: mode as GuardMode,
    forbidden,
    allowlist,
    activated: typeof record.activated === "string" ? record.activated : "",
  };
}

/**
 * Appends one ledger record with a single write on an O_APPEND descriptor, then fsyncs: records
 * from concurrent hooks never interleave, and a reported success is on disk.
 */
export function appendLedger(root: string, entries: LedgerEntry[]): void {
  if (entries.length === 0) return;
  const payload = Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
  const fd = openSync(join(root, LEDGER_PATH), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
  try {
    const written = writeSync(fd, payload);
    if (written !== payload.length) throw new Error(`short ledger append: ${written} of ${payload.length} bytes`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether `path` exists and is a folder (false for anything unreadable). */
export function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
