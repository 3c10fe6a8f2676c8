/**
 * Bounded decompression with the platform's own `DecompressionStream` (Node 18 and later,
 * workerd, browsers): no inflate of our own to get wrong, and no dependency. It is asynchronous,
 * which suits its one caller, the changes capture. Reading stops, and the stream is cancelled, as
 * soon as the output passes `maxBytes`, so a small bomb never expands in memory.
 */

export type Inflated = { ok: true; bytes: Uint8Array } | { ok: false; why: "too_large" | "corrupt" };

/**
 * Expands `bytes` (`gzip`, or `deflate` for a zlib stream) up to `maxBytes` of output.
 *
 * @example
 * ```ts
 * await inflateBounded(gzipped, "gzip", 1024 * 1024) // { ok: true, bytes: Uint8Array [...] }
 * await inflateBounded(bomb, "gzip", 1024) // { ok: false, why: "too_large" }
 * ```
 */
export async function inflateBounded(bytes: Uint8Array, format: "gzip" | "deflate", maxBytes: number): Promise<Inflated> {
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Not awaited before reading: a large input only drains as the output is read.
  const writing = writer
    .write(bytes)
    .then(() => writer.close())
    .catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value as Uint8Array;
      total += chunk.length;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        await writing;
        return { ok: false, why: "too_large" };
      }
      chunks.push(chunk);
    }
  } catch {
    await writing;
    return { ok: false, why: "corrupt" };
  }
  await writing;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return { ok: true, bytes: out };
}
