// zod's tree-shakable "mini" build: this file runs in the worker and in the browser reader
// (dist/public/reader.js), and the classic build would add ~90 KiB gzipped to each.
import * as z from "zod/mini";
import { HandoffError, type Result, err, ok } from "../errors.js";
import { MAX_META_BYTES, paddedLength } from "./layout.js";

// The plaintext inside an envelope: u32 meta length, meta JSON, body, zero padding.
// Kept apart from the AEAD code so the layout can be read (and tested) without keys.

const FORMAT = /^[A-Za-z0-9][A-Za-z0-9._/+-]{0,63}$/;
const utf8 = new TextEncoder();

/**
 * A file name the reader may write to disk as is: one path component, no separators, no control
 * characters, at most 255 UTF-8 bytes. The sender is untrusted, so this is checked on open too.
 */
const FileNameSchema = z.string("file_name must be a string").check(
  z.minLength(1, "file_name is empty"),
  z.refine((name) => utf8.encode(name).length <= 255, "file_name is longer than 255 bytes"),
  z.refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name), "file_name must be a bare name without '/', '\\' or control characters"),
  z.refine((name) => name !== "." && name !== "..", "file_name must not be '.' or '..'"),
);

/** What the sender states about the handoff; sealed with it, so the server never sees it. */
export const SealMetaSchema = z.object({
  /** The document format label, e.g. "ce-handoff/v1" or "kernel-handoff/v1". */
  format: z.string("format must be a string").check(z.regex(FORMAT, "format must be a short label like 'ce-handoff/v1'")),
  /** The original file name (no directories). */
  file_name: FileNameSchema,
  /** When the handoff was created, ISO 8601 with a zone. */
  created_at: z.iso.datetime({ offset: true, error: "created_at must be an ISO 8601 date-time with a zone" }),
  /**
   * The payload format when it is not 1 (the body alone): 2 carries the document and a changes
   * bundle after a short body that tells an older reader to upgrade (shared/crypto/payload.ts).
   */
  // Any later format number is let through here so that readPayload can say "unsupported payload
  // format N: upgrade" instead of calling a newer writer's envelope malformed.
  payload: z.optional(z.int("payload must be a whole number").check(z.minimum(2, "payload must be 2 or more when present"))),
  /** With payload 2: how many bytes after the body hold it (the rest is padding). */
  payload_length: z.optional(z.int("payload_length must be a whole number").check(z.minimum(0, "payload_length must not be negative"))),
});

/** The metadata an opened envelope carries: what was sealed plus the body's exact length. */
export const EnvelopeMetaSchema = z.extend(SealMetaSchema, {
  byte_length: z.int("byte_length must be a whole number").check(z.minimum(0, "byte_length must not be negative")),
});

export type SealMeta = z.infer<typeof SealMetaSchema>;
export type EnvelopeMeta = z.infer<typeof EnvelopeMetaSchema>;

/**
 * Lays out body and metadata as the plaintext to seal, padded with zeros.
 *
 * @example
 * ```ts
 * const plain = frameHandoff(body, { format: "ce-handoff/v1", file_name: "a.md", created_at, byte_length: body.length });
 * ```
 */
export function frameHandoff(body: Uint8Array, meta: EnvelopeMeta, trailing: Uint8Array = new Uint8Array(0)): Uint8Array<ArrayBuffer> {
  const metaBytes = utf8.encode(JSON.stringify(meta));
  const used = 4 + metaBytes.length + body.length + trailing.length;
  const framed = new Uint8Array(paddedLength(used));
  new DataView(framed.buffer).setUint32(0, metaBytes.length);
  framed.set(metaBytes, 4);
  framed.set(body, 4 + metaBytes.length);
  // After the body: a payload a version-1 reader skips as padding (its content is ignored).
  framed.set(trailing, 4 + metaBytes.length + body.length);
  return framed;
}

/**
 * Reads a framed plaintext back. Only a sender holding the key can produce a frame that gets
 * this far, so a failure here means a broken or hostile writer, still reported as `decrypt_failed`.
 *
 * @example
 * ```ts
 * const r = unframeHandoff(plain);
 * if (r.ok) console.log(r.value.meta.file_name, r.value.body.length);
 * ```
 */
export function unframeHandoff(plain: Uint8Array): Result<{ body: Uint8Array; meta: EnvelopeMeta; rest: Uint8Array }> {
  if (plain.length < 4) return malformed("no metadata length");
  const metaLength = new DataView(plain.buffer, plain.byteOffset, plain.byteLength).getUint32(0);
  if (metaLength > MAX_META_BYTES || 4 + metaLength > plain.length) return malformed("metadata length out of range");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(plain.subarray(4, 4 + metaLength)));
  } catch {
    return malformed("metadata is not UTF-8 JSON");
  }
  const parsed = EnvelopeMetaSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return malformed(`metadata ${issue?.path.join(".") || "object"}: ${issue?.message ?? "invalid"}`);
  }
  const start = 4 + metaLength;
  if (start + parsed.data.byte_length > plain.length) return malformed("body is shorter than its stated byte_length");
  const end = start + parsed.data.byte_length;
  if (end + (parsed.data.payload_length ?? 0) > plain.length) return malformed("payload is shorter than its stated payload_length");
  return ok({ body: plain.slice(start, end), meta: parsed.data, rest: plain.subarray(end, end + (parsed.data.payload_length ?? 0)) });
}

function malformed(what: string): Result<never> {
  return err(
    new HandoffError("decrypt_failed", `the decrypted envelope is malformed: ${what}`, {
      hint: "the sender's client wrote a broken envelope; ask them to publish again with a current handoff",
    }),
  );
}
