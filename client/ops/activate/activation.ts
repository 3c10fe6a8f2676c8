import { lstatSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import { validateKernelCheckpoint } from "../../../shared/kernel/checkpoint.js";
import { KERNEL_CHECKPOINT_SCHEMA_ID } from "../../../shared/kernel/sections.js";
import { validateContextReceipt } from "../../../shared/kernel/receipt.js";
import { parseStrictJson } from "../../../shared/kernel/strict-json.js";
import { assertInsideRepository } from "../../lib/kernel-paths.js";
import { readManifestFile, validatedManifest } from "../../lib/manifest-file.js";
import { type ActivePointer, LEDGER_PATH, type LedgerEntry, POINTER_PATH, parsePointer } from "../../lib/guard-state.js";
import { kernelTimestamp } from "../../../shared/time/timestamps.js";
import type { Env } from "../../platform/env.js";
import { workTreeRootOrSelf } from "../../platform/work-tree.js";
import { describeFsError, errorCode, osError, replaceFile } from "../../platform/fs.js";

/**
 * Arming and disarming the context guard, with kernel's state files (see state.ts): what
 * `kernel-manifest activate` writes we write, and what either tool armed either tool disarms.
 */

export interface ActivationResult {
  root: string;
  pointer_path: string;
  pointer: ActivePointer;
  /** The manifest that was active before, when this activation replaced one. */
  replaced?: string;
}

export interface DeactivationResult {
  root: string;
  /** State files removed (none when nothing was active). */
  removed: string[];
  /** Ledger records merged into the receipt's loads_beyond_manifest. */
  merged: number;
  receipt?: string;
}

/** The repository whose _meta/ holds the state: the git toplevel of `cwd`, else `cwd`. */
async function stateRoot(cwd: string, env: Env): Promise<string> {
  return workTreeRootOrSelf(cwd, env);
}

export async function activateManifest(options: { manifest: string; cwd: string; env: Env; now?: () => Date }): Promise<ActivationResult> {
  const text = await readManifestFile(options.manifest, { cwd: options.cwd });
  const context = manifestContext(options.manifest, text);
  const root = await stateRoot(options.cwd, options.env);
  const pointer: ActivePointer = {
    manifest: options.manifest,
    schema: context.schema,
    mode: context.mode,
    forbidden: context.forbidden,
    allowlist: context.allowlist,
    activated: kernelTimestamp(options.now?.() ?? new Date()),
  };
  const pointerPath = join(root, POINTER_PATH);
  const before = readPointerIfAny(pointerPath);
  assertInsideRepository(join(root, "_meta"), root);
  try {
    mkdirSync(join(root, "_meta"), { recursive: true });
  } catch (cause) {
    throw osError(`cannot create ${join(root, "_meta")}`, cause, "check that _meta/ is writable");
  }
  // Written whole and renamed into place: a guard never reads half a pointer.
  replaceFile(pointerPath, `${JSON.stringify(pointer, null, 2)}\n`, 0o644);
  return { root, pointer_path: pointerPath, pointer, ...(before !== undefined && before !== options.manifest ? { replaced: before } : {}) };
}

function readPointerIfAny(path: string): string | undefined {
  try {
    const parsed = parsePointer(readFileSync(path, "utf8"));
    return typeof parsed === "string" ? "(an unreadable pointer)" : parsed.manifest;
  } catch {
    return undefined;
  }
}

interface ManifestContext {
  schema: string;
  mode: ActivePointer["mode"];
  forbidden: string[];
  allowlist: string[];
}

/** A handoff or a checkpoint, validated as `validate` would; its context policy as the pointer records it. */
function manifestContext(source: string, text: string): ManifestContext {
  const parsed = parseStrictJson(text);
  const schema = parsed.ok && typeof parsed.value === "object" && parsed.value !== null ? (parsed.value as { schema?: unknown }).schema : undefined;
  let context:
    | {
        policy?: { mode: ActivePointer["mode"] } | undefined;
        forbidden?: string[] | undefined;
        required?: { path?: string | undefined }[] | undefined;
        optional?: { path?: string | undefined }[] | undefined;
      }
    | undefined;
  if (schema === KERNEL_CHECKPOINT_SCHEMA_ID) {
    const check = validateKernelCheckpoint(parsed.ok ? parsed.value : undefined);
    if (!check.checkpoint) {
      throw new HandoffError("invalid_document", `${source} is not a valid kernel.checkpoint/v1: ${check.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, {
        hint: "fix it (handoff validate shows every problem) and activate again",
      });
    }
    context = check.checkpoint.context;
  } else {
    context = validatedManifest(source, text).context;
  }
  const paths = [...(context?.required ?? []), ...(context?.optional ?? [])].map((selector) => selector.path).filter((path): path is string => typeof path === "string" && path !== "");
  return {
    schema: typeof schema === "string" ? schema : "",
    mode: context?.policy?.mode ?? "advisory",
    forbidden: (context?.forbidden ?? []).filter((glob) => glob !== ""),
    allowlist: [...new Set(paths)].sort(),
  };
}

const LEDGER_FIELDS = new Set(["path", "reason", "estimated_tokens", "ts"]);

/** The ledger's records, checked as the reference checks them: a bad line is an error, not a skip. */
export function parseLedger(text: string, where: string): LedgerEntry[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((raw, index) => {
    const line = raw.replace(/\r$/, "");
    const bad = (why: string) =>
      new HandoffError("invalid_document", `${where} line ${index + 1}: ${why}`, { hint: "fix or remove that line, then deactivate again; the guard stays active until then" });
    if (line === "") throw bad("blank entries are invalid");
    const parsed = parseStrictJson(line);
    if (!parsed.ok) throw bad(`invalid JSON: ${parsed.error.message}`);
    const entry = parsed.value;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw bad("expected a JSON object");
    const record = entry as Record<string, unknown>;
    const unknown = Object.keys(record).filter((key) => !LEDGER_FIELDS.has(key));
    if (unknown.length > 0) throw bad(`unknown field(s): ${unknown.join(", ")}`);
    if (typeof record.path !== "string" || record.path === "") throw bad("path must be a non-empty string");
    if ("reason" in record && typeof record.reason !== "string") throw bad("reason must be a string");
    if ("ts" in record && typeof record.ts !== "string") throw bad("ts must be a string");
    if ("estimated_tokens" in record && !Number.isInteger(record.estimated_tokens)) throw bad("estimated_tokens must be an integer");
    return record as unknown as LedgerEntry;
  });
}

export async function deactivateManifest(options: { cwd: string; env: Env; receipt?: string }): Promise<DeactivationResult> {
  const root = await stateRoot(options.cwd, options.env);
  const pointerPath = join(root, POINTER_PATH);
  const ledgerPath = join(root, LEDGER_PATH);
  const ledgerText = readIfFile(ledgerPath);
  const receiptPath = options.receipt === undefined ? undefined : resolve(options.cwd, options.receipt);
  let merged = 0;
  if (ledgerText !== undefined) {
    if (receiptPath === undefined) {
      throw new HandoffError("usage", `the context ledger ${ledgerPath} has records and no --receipt was given; the guard stays active`, {
        hint: "pass --receipt F (the kernel.context-receipt/v1 that 'handoff context --receipt F' wrote) so the reads are accounted for",
      });
    }
    const entries = parseLedger(ledgerText, ledgerPath);
    mergeIntoReceipt(receiptPath, entries);
    merged = entries.length;
  }
  const removed: string[] = [];
  for (const path of [pointerPath, ledgerPath]) {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) continue;
    rmSync(path);
    removed.push(path);
  }
  return { root, removed, merged, ...(receiptPath === undefined ? {} : { receipt: receiptPath }) };
}

function readIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (cause) {
    if (errorCode(cause) === "ENOENT") return undefined;
    throw new HandoffError("unreadable", `cannot read ${path}: ${describeFsError(cause)}`, { hint: "check its permissions; the guard stays active", cause });
  }
}

/** Appends to loads_beyond_manifest, validates the result, and replaces the receipt by a rename. */
function mergeIntoReceipt(path: string, entries: LedgerEntry[]): void {
  const text = readIfFile(path);
  if (text === undefined) throw new HandoffError("unreadable", `--receipt ${path} does not exist; the guard stays active`, { hint: "pass the receipt 'handoff context --receipt F' wrote" });
  const parsed = parseStrictJson(text);
  const before = validateContextReceipt(parsed.ok ? parsed.value : undefined);
  if (!parsed.ok || !before.ok) {
    throw new HandoffError("invalid_document", `--receipt ${path} is not a valid kernel.context-receipt/v1; the guard stays active`, {
      hint: "pass the receipt 'handoff context --receipt F' wrote",
      details: { issues: parsed.ok ? before.issues : [{ path: "$", message: parsed.error.message }] },
    });
  }
  const receipt = parsed.value as Record<string, unknown>;
  const merged = { ...receipt, loads_beyond_manifest: [...((receipt.loads_beyond_manifest as unknown[] | undefined) ?? []), ...entries] };
  const after = validateContextReceipt(merged);
  if (!after.ok) {
    throw new HandoffError("invalid_document", `the receipt with the ledger merged does not validate: ${after.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}; nothing changed`, {
      hint: "fix the ledger records named, then deactivate again",
    });
  }
  try {
    replaceFile(path, `${JSON.stringify(merged, null, 2)}\n`);
  } catch (cause) {
    throw osError(`cannot update ${path}; the guard stays active`, cause instanceof HandoffError ? cause.cause : cause, "check that the folder is writable");
  }
}
