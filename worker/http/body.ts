import { HandoffError } from "../../shared/errors.js";

function tooLarge(maxBytes: number): HandoffError {
  return new HandoffError("too_large", `the body is larger than this server's limit of ${maxBytes} bytes`, {
    details: { max_bytes: maxBytes },
  });
}

/**
 * How much of a refused chunked body is still read and dropped, so that the connection it came on
 * ends cleanly: past this the stream is cancelled. A client that keeps sending this far past the
 * limit is not worth keeping the connection for.
 */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * The request body, at most `maxBytes`. A declared Content-Length over the limit is refused before
 * a byte is read. Without one, bytes past the limit are not kept (no more than `maxBytes` plus one
 * chunk is ever held), but the rest of the stream is read and dropped before the 413, up to
 * MAX_DRAIN_BYTES. Cancelling the stream there instead left the connection under the request with
 * half a body in it: on workerd behind `wrangler dev` the next request on it, a well-formed
 * publish, failed with a 503 ("Your worker restarted mid-request").
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null) {
    if (!/^\d{1,15}$/.test(declared)) throw new HandoffError("invalid_document", "Content-Length is not a number");
    if (Number(declared) > maxBytes) throw tooLarge(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await drain(reader, total - maxBytes);
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  if (total === 0) throw new HandoffError("empty_input", "the body is empty", { hint: "send the handoff bytes as the request body" });
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Reads `reader` to its end, dropping every chunk; cancels it once MAX_DRAIN_BYTES have gone by. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyPast: number): Promise<void> {
  let dropped = alreadyPast;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > MAX_DRAIN_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // A client that hung up mid-body: there is nothing left to drain, and the 413 still stands.
  }
}
