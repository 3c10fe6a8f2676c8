import * as z from "zod/mini";
import { HandoffError, type Result, err, ok } from "../errors.js";
import { CHANGES_MAGIC } from "./magic.js";
import { pathProblem } from "./path.js";

/**
 * A changes bundle: the uncommitted work of a checkout, so it can travel with a handoff
 * (`create --with-changes`, `publish --with-changes`) and be applied on request elsewhere
 * (`resume --apply-changes`). Tracked changes are one `git diff --binary --full-index HEAD`
 * (binary-safe, with the blob ids a three-way apply needs); untracked, not-ignored files travel
 * whole. Format: docs/storage.md ("Changes bundle (format 1)"). Pure: bytes in, values out.
 */

/** The caps, stated in docs/storage.md and docs/cli.md; over them, capture stops with a clear error. */
export const CHANGES_LIMITS = {
  /** Changed tracked paths plus untracked files. */
  files: 200,
  /** One untracked file. */
  fileBytes: 256 * 1024,
  /** The patch and the untracked files together: with the document, the envelope must stay under the server's 1 MiB. */
  totalBytes: 512 * 1024,
} as const;

/**
 * The version written. Format 2 states each tracked path's mode before and after
 * (`from_mode`/`to_mode`), so the receiver can hold the patch to them; format 1 is still read,
 * and its tracked paths may then only be plain files that stay plain (docs/storage.md).
 */
export const CHANGES_VERSION = 2;
const READABLE_VERSIONS: readonly number[] = [1, 2];

/**
 * The manifest's schema, built on first use: `create` imports this module for the bundle's types
 * and limits, and building a schema at import would load zod into every create (zod/mini, like
 * the CLI's other schemas; the messages below are ours, so no locale is needed).
 */
function manifestSchema() {
  builtManifestSchema ??= buildManifestSchema();
  return builtManifestSchema;
}

let builtManifestSchema: ReturnType<typeof buildManifestSchema> | undefined;

function buildManifestSchema() {
  const count = (n: number) => z.int({ error: "must be a whole number" }).check(z.minimum(0, { message: "must be a whole number from 0" }), z.maximum(n, { message: `must be at most ${n}` }));
  const path = z.string({ error: "must be a string" }).check(
    z.minLength(1, { message: "must not be empty" }),
    z.maxLength(4096, { message: "must be at most 4096 characters" }),
    // git's own path rules (path.ts), the same check the patch's paths get.
    z.refine((p) => pathProblem(p) === undefined, { message: "must be a plain repository-relative path (git's rules: no .git in any spelling, '..', absolute path, backslash or control character)" }),
  );
  const trackedMode = z.enum(["100644", "100755", "120000"], { error: "must be 100644, 100755 or 120000" });
  const list = <T extends z.ZodMiniType>(item: T, max: number) => z.array(item).check(z.maxLength(max, { message: `must hold at most ${max} entries` }));
  return z.object({
    base: z.object({
      head: z.string({ error: "must be a hex commit id" }).check(z.regex(/^[0-9a-f]{40,64}$/, { message: "must be a hex commit id" })),
      branch: z.optional(z.string({ error: "must be a string" }).check(z.minLength(1, { message: "must not be empty" }))),
    }),
    patch_length: count(Number.MAX_SAFE_INTEGER),
    /** Tracked paths the patch changes, with their part of the patch. */
    tracked: list(
      z.object({
        path,
        bytes: count(Number.MAX_SAFE_INTEGER),
        binary: z.boolean({ error: "must be true or false" }),
        /** Format 2: the mode before (null: the patch creates it) and after (null: it deletes it). */
        from_mode: z.optional(z.nullable(trackedMode)),
        to_mode: z.optional(z.nullable(trackedMode)),
      }),
      CHANGES_LIMITS.files,
    ),
    /** Untracked files, whole, in order after the patch. */
    files: list(z.object({ path, mode: z.enum(["100644", "100755"], { error: "must be 100644 or 100755" }), length: count(CHANGES_LIMITS.fileBytes) }), CHANGES_LIMITS.files),
    /** Files that were not captured, and why (a secret, too large, a symlink): named, never sent. */
    left_out: list(
      z.object({
        path: z.string({ error: "must be a string" }).check(z.maxLength(4096, { message: "must be at most 4096 characters" })),
        reason: z.string({ error: "must be a string" }).check(z.maxLength(500, { message: "must be at most 500 characters" })),
      }),
      10_000,
    ),
  });
}

export type ChangesManifest = z.infer<ReturnType<typeof buildManifestSchema>>;

export interface ChangesBundle {
  /** The format read (1 or 2); encodeChanges always writes CHANGES_VERSION. */
  version?: number;
  manifest: ChangesManifest;
  patch: Uint8Array;
  /** The untracked files' bytes, in manifest order. */
  files: Uint8Array[];
}

/** What a reader is told before anything is applied: files and sizes, and what was left out. */
export interface ChangesSummary {
  base: ChangesManifest["base"];
  tracked: { path: string; bytes: number; binary: boolean }[];
  untracked: { path: string; bytes: number }[];
  left_out: { path: string; reason: string }[];
  total_bytes: number;
}

/**
 * The bundle as bytes: magic, version (the one it was read as, else CHANGES_VERSION), u32
 * manifest length, manifest JSON, patch, then each untracked file's bytes.
 *
 * @example
 * ```ts
 * decodeChanges(encodeChanges(bundle)) // { ok: true, value: bundle }
 * ```
 */
export function encodeChanges(bundle: ChangesBundle): Uint8Array {
  const manifest = new TextEncoder().encode(JSON.stringify(bundle.manifest));
  const parts = [bundle.patch, ...bundle.files];
  const total = CHANGES_MAGIC.length + 1 + 4 + manifest.length + parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  out.set(CHANGES_MAGIC, 0);
  out[CHANGES_MAGIC.length] = bundle.version ?? CHANGES_VERSION;
  new DataView(out.buffer).setUint32(CHANGES_MAGIC.length + 1, manifest.length);
  let at = CHANGES_MAGIC.length + 5;
  for (const part of [manifest, ...parts]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Reads a bundle back, checking every length against the manifest: a sender is untrusted, so a
 * path that would leave the checkout, or a length that does not add up, refuses the whole bundle.
 */
export function decodeChanges(bytes: Uint8Array): Result<ChangesBundle> {
  const head = CHANGES_MAGIC.length + 5;
  if (bytes.length < head || CHANGES_MAGIC.some((b, i) => bytes[i] !== b)) return malformed("it does not start with the changes bundle marker");
  const version = bytes[CHANGES_MAGIC.length] ?? 0;
  if (!READABLE_VERSIONS.includes(version)) {
    return err(
      new HandoffError("invalid_document", `unsupported changes bundle version ${version}: this client reads versions ${READABLE_VERSIONS.join(" and ")}`, {
        hint: "upgrade the handoff CLI to one that reads this version",
      }),
    );
  }
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(CHANGES_MAGIC.length + 1);
  if (head + length > bytes.length) return malformed("the manifest length runs past the end");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes.subarray(head, head + length)));
  } catch {
    return malformed("the manifest is not UTF-8 JSON");
  }
  const parsed = manifestSchema().safeParse(json);
  if (!parsed.success) return malformed(`manifest ${parsed.error.issues[0]?.path.join(".") || ""}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const manifest = parsed.data;
  if (version >= 2) {
    const unstated = manifest.tracked.find((t) => t.from_mode === undefined || t.to_mode === undefined);
    if (unstated) return malformed(`manifest tracked path ${unstated.path}: format 2 states its from_mode and to_mode`);
  } else if (manifest.tracked.some((t) => t.from_mode !== undefined || t.to_mode !== undefined)) {
    return malformed("manifest: from_mode and to_mode belong to format 2");
  }
  const paths = [...manifest.tracked.map((t) => t.path), ...manifest.files.map((f) => f.path)];
  if (new Set(paths).size !== paths.length) return malformed("a path appears twice");
  let at = head + length;
  const take = (n: number) => {
    const part = bytes.slice(at, at + n);
    at += n;
    return part;
  };
  const expected = manifest.patch_length + manifest.files.reduce((n, f) => n + f.length, 0);
  if (at + expected !== bytes.length) return malformed("the lengths in the manifest do not add up to the bundle's size");
  const patch = take(manifest.patch_length);
  const files = manifest.files.map((f) => take(f.length));
  return ok({ version, manifest, patch, files });
}

/**
 * Files and sizes, for `--peek`, the orientation and the share page.
 *
 * @example
 * ```ts
 * summarizeChanges(bundle).untracked // [{ path: "notes.txt", bytes: 12 }]
 * ```
 */
export function summarizeChanges(bundle: ChangesBundle): ChangesSummary {
  return {
    base: bundle.manifest.base,
    tracked: bundle.manifest.tracked,
    untracked: bundle.manifest.files.map((f) => ({ path: f.path, bytes: f.length })),
    left_out: bundle.manifest.left_out,
    total_bytes: bundle.patch.length + bundle.files.reduce((n, f) => n + f.length, 0),
  };
}

/**
 * The bundle without the paths `excluded` names a reason for (given each repository-relative
 * path): their part of the patch and their bytes dropped, each named in `left_out` with the
 * reason. For a bundle captured earlier and sent now, under a policy that forbids some of it.
 *
 * @example
 * ```ts
 * withoutPaths(bundle, (path) => (path.startsWith("secrets/") ? "forbidden" : undefined)).manifest.left_out
 * // [{ path: "secrets/prod.env", reason: "forbidden" }]
 * ```
 */
export function withoutPaths(bundle: ChangesBundle, excluded: (path: string) => string | undefined): ChangesBundle {
  const left_out = [...bundle.manifest.left_out];
  const drop = (path: string) => {
    const reason = excluded(path);
    if (reason !== undefined) left_out.push({ path, reason });
    return reason !== undefined;
  };
  const parts: Uint8Array[] = [];
  let at = 0;
  const tracked = bundle.manifest.tracked.filter((t) => {
    const part = bundle.patch.subarray(at, at + t.bytes);
    at += t.bytes;
    if (drop(t.path)) return false;
    parts.push(part);
    return true;
  });
  const kept = bundle.manifest.files.map((f, i) => ({ f, bytes: bundle.files[i] ?? new Uint8Array(0) })).filter(({ f }) => !drop(f.path));
  if (left_out.length === bundle.manifest.left_out.length) return bundle;
  const patch = concatBytes(parts);
  return {
    ...bundle,
    manifest: { ...bundle.manifest, patch_length: patch.length, tracked, files: kept.map(({ f }) => f), left_out },
    patch,
    files: kept.map(({ bytes }) => bytes),
  };
}

/**
 * Splits `git diff --no-renames` output into one part per file, in the order of `paths`
 * (`git diff --name-only -z` with the same arguments lists them in the same order). A header
 * that does not name the expected path (git quotes unusual names) leaves that part undefined:
 * the caller leaves the file out rather than guess.
 *
 * @example
 * ```ts
 * splitPatch(bytes("diff --git a/x b/x\n...diff --git a/y b/y\n..."), ["x", "y"]) // [Uint8Array, Uint8Array]
 * ```
 */
export function splitPatch(patch: Uint8Array, paths: string[]): (Uint8Array | undefined)[] {
  const text = new TextDecoder("latin1").decode(patch);
  const starts: number[] = text.startsWith("diff --git ") ? [0] : [];
  for (let at = text.indexOf("\ndiff --git "); at !== -1; at = text.indexOf("\ndiff --git ", at + 1)) starts.push(at + 1);
  if (starts.length !== paths.length) return paths.map(() => undefined);
  return paths.map((path, i) => {
    const from = starts[i] ?? 0;
    const to = starts[i + 1] ?? patch.length;
    const header = text.slice(from, text.indexOf("\n", from));
    const latin = new TextDecoder("latin1").decode(new TextEncoder().encode(path));
    return header === `diff --git a/${latin} b/${latin}` ? patch.slice(from, to) : undefined;
  });
}

/**
 * The parts one after the other, as one array.
 *
 * @example
 * ```ts
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]) // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function malformed(why: string) {
  return err(new HandoffError("invalid_document", `the changes bundle is malformed: ${why}`, { hint: "ask the sender to publish it again; nothing was applied" }));
}
