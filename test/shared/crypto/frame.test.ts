import { describe, expect, it } from "vitest";
import { frameHandoff, unframeHandoff } from "../../../shared/crypto/frame.js";
import { MIN_PADDED_BYTES, paddedLength } from "../../../shared/crypto/layout.js";

const META = { format: "ce-handoff/v1", file_name: "a.md", created_at: "2026-05-01T10:00:00Z", byte_length: 3 };
const BODY = new TextEncoder().encode("abc");

/** A frame with a hand-made metadata section, for readers facing a broken or hostile writer. */
function rawFrame(metaJson: string, body: Uint8Array, declaredLength?: number): Uint8Array {
  const meta = new TextEncoder().encode(metaJson);
  const out = new Uint8Array(4 + meta.length + body.length);
  new DataView(out.buffer).setUint32(0, declaredLength ?? meta.length);
  out.set(meta, 4);
  out.set(body, 4 + meta.length);
  return out;
}

describe("paddedLength", () => {
  it.each([
    [0, MIN_PADDED_BYTES],
    [1, MIN_PADDED_BYTES],
    [256, 256],
    [257, 272],
    [1000, 1024],
    [5000, 5120],
    [1_048_576, 1_048_576],
    [1_048_577, 1_081_344],
  ])("%i -> %i", (length, padded) => {
    expect(paddedLength(length)).toBe(padded);
  });

  it("never shrinks and never adds more than 12.5% above the floor", () => {
    for (let n = MIN_PADDED_BYTES; n < 3_000_000; n = Math.ceil(n * 1.013) + 7) {
      const padded = paddedLength(n);
      expect(padded).toBeGreaterThanOrEqual(n);
      expect(padded / n).toBeLessThanOrEqual(1.125);
    }
  });
});

describe("frameHandoff / unframeHandoff", () => {
  it("round-trips and pads with zeros", () => {
    const framed = frameHandoff(BODY, META);
    expect(framed.length).toBe(MIN_PADDED_BYTES);
    const result = unframeHandoff(framed);
    expect(result.ok && { body: result.value.body, meta: result.value.meta }).toEqual({ body: BODY, meta: META });
    expect(result.ok && result.value.rest.length).toBe(0);
  });

  it("ignores unknown metadata keys, so a later v1 writer may add optional ones", () => {
    const result = unframeHandoff(rawFrame(JSON.stringify({ ...META, title: "extra" }), BODY));
    expect(result.ok && result.value.meta).toEqual(META);
  });

  it.each([
    { name: "too short for a length", frame: new Uint8Array(2), message: /no metadata length/ },
    { name: "length beyond the data", frame: rawFrame("{}", BODY, 500), message: /metadata length out of range/ },
    { name: "length beyond the cap", frame: rawFrame("{}", BODY, 5000), message: /metadata length out of range/ },
    { name: "not JSON", frame: rawFrame("{nope", BODY), message: /not UTF-8 JSON/ },
    { name: "not UTF-8", frame: rawFrame("\u0000", BODY).fill(0xff, 4, 5), message: /not UTF-8 JSON/ },
    { name: "path in file_name", frame: rawFrame(JSON.stringify({ ...META, file_name: "../../.bashrc" }), BODY), message: /file_name/ },
    { name: "missing format", frame: rawFrame(JSON.stringify({ ...META, format: undefined }), BODY), message: /format/ },
    { name: "negative length", frame: rawFrame(JSON.stringify({ ...META, byte_length: -1 }), BODY), message: /byte_length/ },
    { name: "body shorter than stated", frame: rawFrame(JSON.stringify({ ...META, byte_length: 4 }), BODY), message: /shorter than its stated/ },
  ])("rejects $name as decrypt_failed", ({ frame, message }) => {
    const result = unframeHandoff(frame);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("decrypt_failed");
    expect(result.error.message).toMatch(/^the decrypted envelope is malformed: /);
    expect(result.error.message).toMatch(message);
  });
});
