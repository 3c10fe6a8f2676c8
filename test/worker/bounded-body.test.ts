// readBoundedBody in workerd, on bodies without a Content-Length: what it keeps, and that a body
// over the limit is read to its end (not cancelled half-read) before the 413, up to the drain cap.
import { describe, expect, it } from "vitest";
import { isHandoffError } from "../../shared/errors.js";
import { readBoundedBody } from "../../worker/http/body.js";

const CHUNK = 1024;

/** A streamed body of `chunks` chunks of CHUNK bytes; `pulled()` says how many the reader took, `cancelled` whether it gave up. */
function streamed(chunks: number) {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(CHUNK).fill(pulled % 256));
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request("http://handoff.test/v1/handoffs", { method: "POST", body });
  return { request, pulled: () => pulled, cancelled: () => cancelled };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isHandoffError(error)) return `${error.reason}: ${error.message}`;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("readBoundedBody without a Content-Length", () => {
  it("keeps a body within the limit, byte for byte", async () => {
    const body = streamed(4);
    const bytes = await readBoundedBody(body.request, 4 * CHUNK);
    expect(bytes.byteLength).toBe(4 * CHUNK);
    expect(bytes[CHUNK]).toBe(2);
  });

  it("refuses a body over the limit with too_large, after reading the rest of it", async () => {
    const body = streamed(64);
    expect(await refusal(readBoundedBody(body.request, 8 * CHUNK))).toBe(`too_large: the body is larger than this server's limit of ${8 * CHUNK} bytes`);
    // Read to its end (a half-read stream broke the next request on the connection), never cancelled.
    expect(body.pulled()).toBe(64);
    expect(body.cancelled()).toBe(false);
  });

  it("cancels a body that keeps going past the drain cap (16 MiB), still with too_large", async () => {
    const body = streamed(17 * 1024);
    expect(await refusal(readBoundedBody(body.request, 8 * CHUNK))).toMatch(/^too_large: /);
    expect(body.cancelled()).toBe(true);
    expect(body.pulled()).toBeLessThan(17 * 1024);
  });
});
