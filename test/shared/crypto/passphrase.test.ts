import { describe, expect, it } from "vitest";
import { openHandoff, sealHandoff } from "../../../shared/crypto/envelope.js";
import { HEADER_V2_BYTES } from "../../../shared/crypto/layout.js";
import { PASSPHRASE_ITERATIONS, derivePassphraseKey, passphraseSalt } from "../../../shared/crypto/passphrase.js";
import { deriveReadToken } from "../../../shared/crypto/read-token.js";

const META = { format: "ce-handoff/v1", file_name: "a.md", created_at: "2026-05-01T10:00:00Z" };
const body = new TextEncoder().encode("# Secret plan\n");

describe("passphrase links (envelope v2)", () => {
  it("seal with a passphrase: version 2, the KDF in the header, and only the right passphrase opens it", async () => {
    const { ciphertext, key, passKey } = await sealHandoff(body, META, { passphrase: "correct horse" });
    expect(ciphertext[4]).toBe(2);
    const view = new DataView(ciphertext.buffer, ciphertext.byteOffset);
    expect(ciphertext[33]).toBe(1);
    expect(view.getUint32(34)).toBe(PASSPHRASE_ITERATIONS);
    expect([...ciphertext.subarray(38, HEADER_V2_BYTES)]).toEqual([...(await passphraseSalt(key))]);
    expect(passKey).toEqual(await derivePassphraseKey(key, "correct horse"));
    // The same passphrase composed or decomposed is one passphrase.
    expect(await derivePassphraseKey(key, "caf\u00e9")).toEqual(await derivePassphraseKey(key, "cafe\u0301"));

    expect(new TextDecoder().decode((await openHandoff(ciphertext, key, passKey)).plaintext)).toBe("# Secret plan\n");
    await expect(openHandoff(ciphertext, key)).rejects.toMatchObject({ reason: "decrypt_failed", message: "this share link needs a passphrase" });
    await expect(openHandoff(ciphertext, key, await derivePassphraseKey(key, "wrong horse"))).rejects.toThrow(/^authentication failed/);
    // A changed iteration count in the header is refused before any decryption.
    const tampered = ciphertext.slice();
    new DataView(tampered.buffer).setUint32(34, 1000);
    await expect(openHandoff(tampered, key, passKey)).rejects.toThrow(/passphrase KDF is not the one envelope v2 fixes/);
  });

  it("the read token mixes the passphrase in: the link alone and a wrong passphrase give other tokens", async () => {
    const { key, passKey } = await sealHandoff(body, META, { passphrase: "correct horse" });
    const right = await deriveReadToken(key, passKey);
    expect(right).not.toBe(await deriveReadToken(key));
    expect(right).not.toBe(await deriveReadToken(key, await derivePassphraseKey(key, "wrong horse")));
    expect(right).toBe(await deriveReadToken(key, await derivePassphraseKey(key, "correct horse")));
  });

  it("a link without a passphrase stays version 1 and refuses one", async () => {
    const { ciphertext, key, passKey } = await sealHandoff(body, META);
    expect(ciphertext[4]).toBe(1);
    expect(passKey).toBeUndefined();
    await expect(openHandoff(ciphertext, key, new Uint8Array(32))).rejects.toThrow(/has no passphrase/);
    await expect(derivePassphraseKey(key, "")).rejects.toMatchObject({ reason: "invalid_option" });
  });
});
