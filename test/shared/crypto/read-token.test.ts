import { hkdfSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase64Url } from "../../../shared/ids/base64url.js";
import { newShareKey } from "../../../shared/crypto/key.js";
import { deriveReadToken, isReadToken } from "../../../shared/crypto/read-token.js";
import { isHandoffError } from "../../../shared/errors.js";

describe("deriveReadToken", () => {
  it("is HKDF-SHA-256 of the secret with an empty salt and its own label (checked against node:crypto)", async () => {
    const key = newShareKey();
    const expected = Buffer.from(hkdfSync("sha256", decodeBase64Url(key)!, new Uint8Array(0), "handoff read token v1", 32)).toString("base64url");
    expect(await deriveReadToken(key)).toBe(expected);
  });

  it("is deterministic, well-formed, and differs from the key and between keys", async () => {
    const [a, b] = [newShareKey(), newShareKey()];
    const token = await deriveReadToken(a);
    expect(await deriveReadToken(a)).toBe(token);
    expect(isReadToken(token)).toBe(true);
    expect(token).not.toBe(a);
    expect(await deriveReadToken(b)).not.toBe(token);
  });

  it("is independent of the envelope's AES key label (a different info gives a different output)", async () => {
    const key = newShareKey();
    const envelopeLabel = Buffer.from(hkdfSync("sha256", decodeBase64Url(key)!, new Uint8Array(0), "handoff envelope v1 AES-256-GCM", 32)).toString("base64url");
    expect(await deriveReadToken(key)).not.toBe(envelopeLabel);
  });

  it("refuses a malformed key with decrypt_failed, never echoing it", async () => {
    const error = await deriveReadToken("short-key").catch((e: unknown) => e);
    expect(isHandoffError(error) && error.reason).toBe("decrypt_failed");
    expect(String((error as Error).message)).not.toContain("short-key");
  });

  it.each([
    ["", false],
    ["A".repeat(43), true],
    ["A".repeat(42) + "B", false],
    ["!".repeat(43), false],
    ["A".repeat(44), false],
  ])("isReadToken(%j) is %s", (text, expected) => expect(isReadToken(text)).toBe(expected));
});
