import { HandoffError } from "../../shared/errors.js";

function tooLarge(maxBytes: number): HandoffError {
  return new HandoffError("too_large", `the body is larger than this server's limit of ${maxBytes} bytes`, {
    details: { max_bytes: maxBytes },
  });
}

/**
 * The request body, at most `maxBytes`. A declared Content-Length over the limit is refused before
 * a byte is read; without one, reading stops (and the stream is cancelled) as soon as the count
 * passes the limit, so no more than `maxBytes` plus one chunk is ever held.
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
        await reader.cancel();
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
