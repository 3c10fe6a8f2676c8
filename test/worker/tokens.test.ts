import { describe, expect, it } from "vitest";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import { bearerToken, constantTimeEqual, newHandoffId, newToken, sha256Base64Url, tokenKind } from "../../shared/ids/tokens.js";

describe("ids", () => {
  it("100,000 generated ids are unique and well-formed", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 100_000; i++) ids.add(newHandoffId());
    expect(ids.size).toBe(100_000);
    for (const id of [...ids].slice(0, 1000)) expect(isHandoffId(id)).toBe(true);
    // 1 in 64 random ids would start with '-', which a command line reads as a flag.
    expect([...ids].filter((id) => id.startsWith("-"))).toEqual([]);
  });

  it.each([
    ["AAAAAAAAAAAAAAAAAAAAAA", true],
    ["AAAAAAAAAAAAAAAAAAAAAB", false], // stray low bits: not canonical
    ["AAAAAAAAAAAAAAAAAAAAA", false],
    ["AAAAAAAAAAAAAAAAAAAAAAA", false],
    ["AAAAAAAAAAAAAAAAAAAA/A", false],
    ["../../../../etc/passwd", false],
    ["", false],
  ])("isHandoffId(%s) = %s", (id, expected) => {
    expect(isHandoffId(id)).toBe(expected);
  });
});

describe("tokens", () => {
  it.each(["owner", "team", "publish"] as const)("a new %s token carries 256 bits and its kind", (kind) => {
    const token = newToken(kind);
    expect(token).toHaveLength(4 + 43);
    expect(tokenKind(token)).toBe(kind);
    expect(newToken(kind)).not.toBe(token);
  });

  it.each([
    ["", undefined],
    ["hdo_", undefined],
    [`hdx_${"A".repeat(43)}`, undefined],
    [`hdo_${"A".repeat(42)}`, undefined],
    [`hdo_${"A".repeat(44)}`, undefined],
    [`hdo_${"A".repeat(42)}B`, undefined],
    [`hdo_${"A".repeat(42)}=`, undefined],
    [`HDO_${"A".repeat(43)}`, undefined],
    [`hdo_${"A".repeat(43)}`, "owner"],
  ])("tokenKind(%s) = %s", (token, kind) => {
    expect(tokenKind(token)).toBe(kind);
  });

  it.each([
    [undefined, undefined],
    ["Bearer abc", "abc"],
    ["bearer   abc ", "abc"],
    ["Bearer", null],
    ["Bearer ", null],
    ["Bearer a b", null],
    ["Basic abc", null],
    ["abc", null],
  ])("bearerToken(%s) = %s", (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });

  it("hashes with SHA-256 to base64url", async () => {
    expect(await sha256Base64Url("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  });

  it.each([
    ["same", "same", true],
    ["same", "sam", false],
    ["same", "samf", false],
    ["", "", true],
    ["a", "", false],
  ])("constantTimeEqual(%s, %s) = %s", (a, b, expected) => {
    expect(constantTimeEqual(a, b)).toBe(expected);
  });
});
