import { HandoffError, type Result, err, ok } from "../errors.js";
import type { EnvelopeMeta } from "./frame.js";

/**
 * Payload formats inside the envelope's plaintext (docs/storage.md, "Payload format 2"). Format 1
 * is the body alone. Format 2 carries a document and a changes bundle: the body is a short
 * Markdown notice (what a reader that knows only format 1 shows: a clear "upgrade" instead of
 * bytes it cannot read), and the payload sits after it, where such a reader sees padding.
 * The envelope's header, key derivation and version are untouched.
 */

export const PAYLOAD_WITH_CHANGES = 2;

/** What an older reader shows instead of the document: it names the problem and what to do. */
export const UPGRADE_NOTICE = `# Upgrade Handoff to open this handoff

This share link holds a handoff together with its uncommitted changes (payload format 2), which
this version of Handoff cannot read. Nothing was lost: install a newer Handoff and resume from the
same link. Reading it here used one of the link's views.
`;

/**
 * The body, trailing payload and meta fields to seal a document with its changes bundle.
 *
 * @example
 * ```ts
 * const framed = withChanges(documentBytes, changesBytes);
 * await sealHandoff(framed.body, { ...meta, ...framed.meta }, { trailing: framed.trailing });
 * ```
 */
export function withChanges(document: Uint8Array, changes: Uint8Array): { body: Uint8Array; trailing: Uint8Array; meta: Pick<EnvelopeMeta, "payload" | "payload_length"> } {
  const trailing = new Uint8Array(4 + document.length + changes.length);
  new DataView(trailing.buffer).setUint32(0, document.length);
  trailing.set(document, 4);
  trailing.set(changes, 4 + document.length);
  return { body: new TextEncoder().encode(UPGRADE_NOTICE), trailing, meta: { payload: PAYLOAD_WITH_CHANGES, payload_length: trailing.length } };
}

/**
 * The document and, with payload format 2, the changes bundle's bytes from an opened envelope.
 *
 * @example
 * ```ts
 * const opened = await openHandoff(ciphertext, key);
 * const { document, changes } = unwrap(readPayload(opened));
 * ```
 */
export function readPayload(opened: { plaintext: Uint8Array; meta: EnvelopeMeta; payload: Uint8Array }): Result<{ document: Uint8Array; changes?: Uint8Array }> {
  if (opened.meta.payload === undefined) return ok({ document: opened.plaintext });
  if (opened.meta.payload !== PAYLOAD_WITH_CHANGES) {
    return err(
      new HandoffError("decrypt_failed", `unsupported payload format ${opened.meta.payload}: this client reads payload formats 1 and ${PAYLOAD_WITH_CHANGES}`, {
        hint: "upgrade the handoff CLI to one that reads this format; the link was read (one view), so ask the sender for a new one if none is left",
        details: { payload: opened.meta.payload },
      }),
    );
  }
  const bytes = opened.payload;
  if (bytes.length < 4) return malformed("no document length");
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  if (4 + length > bytes.length) return malformed("the document length runs past the payload");
  return ok({ document: bytes.slice(4, 4 + length), changes: bytes.slice(4 + length) });
}

function malformed(why: string) {
  return err(new HandoffError("decrypt_failed", `the decrypted envelope is malformed: payload format 2: ${why}`, { hint: "ask the sender to publish it again" }));
}
