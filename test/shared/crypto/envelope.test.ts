import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENVELOPE_VERSION, openHandoff, sealHandoff } from "../../../shared/crypto/envelope.js";
import { HEADER_BYTES, paddedLength } from "../../../shared/crypto/layout.js";
import { KEY_LENGTH, newShareKey } from "../../../shared/crypto/key.js";
import { HandoffError } from "../../../shared/errors.js";

const META = { format: "ce-handoff/v1", file_name: "fix-login.md", created_at: "2026-05-01T10:00:00Z" };
const text = (s: string) => new TextEncoder().encode(s);

/** Resolves to the HandoffError a promise rejects with; fails the test if it resolves or throws something else. */
async function failure(promise: Promise<unknown>): Promise<HandoffError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(HandoffError);
  return outcome as HandoffError;
}

async function expectDecryptFailed(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await failure(promise);
  expect(error.reason).toBe("decrypt_failed");
  expect(error.message).toMatch(message);
  expect(error.hint).toBeTruthy();
}

describe("sealHandoff / openHandoff round trip", () => {
  const bigBody = new Uint8Array(1024 * 1024);
  for (let i = 0; i < bigBody.length; i += 65536) crypto.getRandomValues(bigBody.subarray(i, i + 65536));
  it.each([
    { name: "empty body", body: new Uint8Array(0), file_name: "empty.md" },
    { name: "1 MiB of random bytes", body: bigBody, file_name: "big.bin" },
    { name: "unicode file name", body: text("# Résumé\n\nnaïve café ✓\n"), file_name: "résumé – 日本語 🚀.md" },
    { name: "kernel manifest", body: text('{"objective":"x"}'), file_name: "handoff.json" },
  ])("$name", async ({ body, file_name }) => {
    const meta = { ...META, file_name };
    const { ciphertext, key } = await sealHandoff(body, meta);
    expect(key).toMatch(new RegExp(`^[A-Za-z0-9_-]{${KEY_LENGTH}}$`));
    const opened = await openHandoff(ciphertext, key);
    // Buffer.compare, not toEqual: a deep diff of 1 MiB costs seconds.
    expect(opened.plaintext.length).toBe(body.length);
    expect(Buffer.compare(opened.plaintext, body)).toBe(0);
    expect(opened.meta).toEqual({ ...meta, byte_length: body.length });
  });

  it("uses a fresh key, salt and iv every time", async () => {
    const a = await sealHandoff(text("same"), META);
    const b = await sealHandoff(text("same"), META);
    expect(a.key).not.toBe(b.key);
    expect(a.ciphertext.subarray(5, HEADER_BYTES)).not.toEqual(b.ciphertext.subarray(5, HEADER_BYTES));
  });

  it("writes the documented header and never the plaintext or metadata in the clear", async () => {
    const marker = "PLAINTEXT-MARKER-7f3a";
    const { ciphertext } = await sealHandoff(text(`body ${marker}`), { ...META, file_name: `${marker}.md` });
    expect(Array.from(ciphertext.subarray(0, 5))).toEqual([0x48, 0x4f, 0x46, 0x46, ENVELOPE_VERSION]);
    const latin1 = Array.from(ciphertext, (b) => String.fromCharCode(b)).join("");
    expect(latin1).not.toContain(marker);
    expect(latin1).not.toContain("ce-handoff");
  });

  it("pads lengths to buckets: small bodies all have one size", async () => {
    const sizes = await Promise.all([0, 1, 50, 100].map(async (n) => (await sealHandoff(new Uint8Array(n), META)).ciphertext.length));
    expect(new Set(sizes).size).toBe(1);
    const { ciphertext } = await sealHandoff(new Uint8Array(5000), META);
    expect(ciphertext.length).toBe(HEADER_BYTES + paddedLength(4 + JSON.stringify({ ...META, byte_length: 5000 }).length + 5000) + 16);
  });
});

describe("sealHandoff refuses metadata a reader could not trust", () => {
  it.each([
    { field: "file_name", value: "../escape.md" },
    { field: "file_name", value: "dir/file.md" },
    { field: "file_name", value: "dir\\file.md" },
    { field: "file_name", value: ".." },
    { field: "file_name", value: "" },
    { field: "file_name", value: "a\nb.md" },
    { field: "file_name", value: "x".repeat(256) },
    { field: "created_at", value: "yesterday" },
    { field: "format", value: "" },
    { field: "format", value: "has space" },
  ])("$field = $value", async ({ field, value }) => {
    const error = await failure(sealHandoff(text("x"), { ...META, [field]: value }));
    expect(error.reason).toBe("invalid_document");
    expect(error.message).toContain(field);
  });
});

describe("openHandoff failures are decrypt_failed and say which", () => {
  it("flipping any single byte of an envelope fails, naming the part hit", async () => {
    const { ciphertext, key } = await sealHandoff(text("tiny"), META);
    for (let i = 0; i < ciphertext.length; i++) {
      const tampered = ciphertext.slice();
      tampered[i]! ^= 0xff;
      const expected = i < 4 ? /^not a handoff envelope/ : i === 4 ? /^unsupported envelope version 254/ : /^authentication failed/;
      await expectDecryptFailed(openHandoff(tampered, key), expected);
    }
  });

  it("a wrong key fails authentication", async () => {
    const { ciphertext } = await sealHandoff(text("secret"), META);
    await expectDecryptFailed(openHandoff(ciphertext, newShareKey()), /^authentication failed: wrong key/);
  });

  it("truncated input fails at every cut", async () => {
    const { ciphertext, key } = await sealHandoff(text("cut me"), META);
    for (const length of [0, 3, 4, 5, 20, HEADER_BYTES, HEADER_BYTES + 15, HEADER_BYTES + 16, ciphertext.length - 1]) {
      const expected = length < 5 ? /^not a handoff envelope/ : length < HEADER_BYTES + 16 ? /cut short/ : /^authentication failed/;
      await expectDecryptFailed(openHandoff(ciphertext.slice(0, length), key), expected);
    }
  });

  it("appended bytes fail authentication", async () => {
    const { ciphertext, key } = await sealHandoff(text("x"), META);
    await expectDecryptFailed(openHandoff(new Uint8Array([...ciphertext, 0]), key), /^authentication failed/);
  });

  it.each([0, 3, 255])("version byte %i is named as unsupported", async (version) => {
    const { ciphertext, key } = await sealHandoff(text("x"), META);
    ciphertext[4] = version;
    await expectDecryptFailed(openHandoff(ciphertext, key), new RegExp(`^unsupported envelope version ${version}: this client reads versions 1 and 2`));
  });

  it("a v1 envelope relabelled v2 asks for a passphrase (v2 is the passphrase version)", async () => {
    const { ciphertext, key } = await sealHandoff(text("x"), META);
    ciphertext[4] = 2;
    await expectDecryptFailed(openHandoff(ciphertext, key), /^this share link needs a passphrase/);
  });

  it("someone else's bytes are not an envelope", async () => {
    await expectDecryptFailed(openHandoff(text("<html>404</html>"), newShareKey()), /^not a handoff envelope/);
  });

  const valid = newShareKey();
  const canonicalLast = valid.slice(0, -1) + "A";
  it.each([
    { name: "empty", key: "" },
    { name: "one character short", key: valid.slice(0, -1) },
    { name: "one character long", key: `${valid}A` },
    { name: "standard base64 alphabet", key: `+${valid.slice(1)}` },
    { name: "padded", key: `${valid.slice(0, -1)}=` },
    { name: "non-canonical last character", key: canonicalLast.slice(0, -1) + "B" },
    { name: "whitespace", key: ` ${valid.slice(1)}` },
  ])("malformed key: $name", async ({ key }) => {
    const { ciphertext } = await sealHandoff(text("x"), META);
    const error = await failure(openHandoff(ciphertext, key));
    expect(error.reason).toBe("decrypt_failed");
    expect(error.message).toMatch(/^bad key format/);
    if (key.length > 4) expect(error.message).not.toContain(key);
  });
});

describe("properties", () => {
  it("random bodies round-trip", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.string({ minLength: 1, maxLength: 40 }), async (body, name) => {
        const file_name = name.replace(/[/\\\u0000-\u001f\u007f]/g, "_").replace(/^\.\.?$/, "_");
        const { ciphertext, key } = await sealHandoff(body, { ...META, file_name });
        const opened = await openHandoff(ciphertext, key);
        expect(opened.plaintext).toEqual(body);
        expect(opened.meta.file_name).toBe(file_name);
      }),
      { numRuns: 100 },
    );
  });

  it("any single-bit flip is detected", async () => {
    const { ciphertext, key } = await sealHandoff(text("a handoff body worth protecting"), META);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: ciphertext.length * 8 - 1 }), async (bit) => {
        const tampered = ciphertext.slice();
        tampered[bit >> 3]! ^= 1 << (bit & 7);
        const error = await failure(openHandoff(tampered, key));
        expect(error.reason).toBe("decrypt_failed");
      }),
      { numRuns: 300 },
    );
  });
});

describe("the byte layout documented in docs/storage.md", () => {
  // An independent reader written from the document: if the code drifts from it, this fails.
  async function readPerDocs(envelope: Uint8Array, key: string, aad: boolean) {
    const secret = Buffer.from(key, "base64url");
    const header = envelope.subarray(0, 33);
    const base = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
    const aes = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: envelope.subarray(5, 21), info: text("handoff envelope v1 AES-256-GCM") },
      base,
      { name: "AES-GCM", length: 256 },
      false,
      ["decrypt"],
    );
    const params = { name: "AES-GCM", iv: envelope.subarray(21, 33), ...(aad ? { additionalData: header } : {}) };
    const plain = new Uint8Array(await crypto.subtle.decrypt(params, aes, envelope.subarray(33)));
    const metaLength = new DataView(plain.buffer).getUint32(0);
    const meta = JSON.parse(new TextDecoder().decode(plain.subarray(4, 4 + metaLength))) as { byte_length: number };
    return { meta, body: plain.subarray(4 + metaLength, 4 + metaLength + meta.byte_length), padding: plain.subarray(4 + metaLength + meta.byte_length) };
  }

  it("decrypts with HKDF-SHA-256 + AES-256-GCM and the 33-byte header as AAD", async () => {
    const { ciphertext, key } = await sealHandoff(text("documented"), META);
    const read = await readPerDocs(ciphertext, key, true);
    expect(new TextDecoder().decode(read.body)).toBe("documented");
    expect(read.meta).toEqual({ ...META, byte_length: 10 });
    expect(read.padding.every((b) => b === 0)).toBe(true);
    await expect(readPerDocs(ciphertext, key, false)).rejects.toThrow();
  });
});
