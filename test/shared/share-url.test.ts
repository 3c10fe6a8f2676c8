import { describe, expect, it } from "vitest";
import { newShareKey } from "../../shared/crypto/key.js";
import { buildShareUrl, isShareUrl, normalizeServerUrl, parseShareUrl } from "../../shared/api/share-url.js";

const ID = "9mB3qQYx5yYt0v1mX4k2Ag";
const KEY = newShareKey();

describe("normalizeServerUrl", () => {
  it.each([
    ["https://handoff.example.com", "https://handoff.example.com"],
    ["https://Handoff.Example.com:443/", "https://handoff.example.com"],
    ["  https://example.com/team-a//  ", "https://example.com/team-a"],
    ["https://example.com:8443/x/y", "https://example.com:8443/x/y"],
    ["http://127.0.0.1:8787", "http://127.0.0.1:8787"],
    ["http://localhost:8787/", "http://localhost:8787"],
    ["http://[::1]:8787", "http://[::1]:8787"],
    ["http://127.1:8787", "http://127.0.0.1:8787"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizeServerUrl(input, "--server")).toEqual({ ok: true, value: expected });
  });

  it.each([
    ["handoff.example.com", /--server is not a URL/],
    ["", /--server is not a URL/],
    ["ftp://example.com", /must be an https:\/\/ URL/],
    ["javascript:alert(1)", /must be an https:\/\/ URL/],
    ["http://example.com", /plain http to example.com/],
    ["http://10.0.0.5:8787", /plain http to 10.0.0.5/],
    ["http://localhost.evil.com", /plain http to localhost.evil.com/],
    ["https://user:pw@example.com", /must not contain a user name or password/],
    ["https://tok@example.com", /must not contain a user name or password/],
    ["https://example.com/?x=1", /without '\?' or '#'/],
    ["https://example.com/#frag", /without '\?' or '#'/],
  ])("refuses %s", (input, message) => {
    const result = normalizeServerUrl(input, "--server");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe("invalid_option");
    expect(result.error.message).toMatch(message);
  });

  it("never echoes a password it refuses", () => {
    const result = normalizeServerUrl("https://u:hunter2secret@example.com", "--server");
    expect(!result.ok && result.error.message).not.toContain("hunter2secret");
  });
});

describe("buildShareUrl", () => {
  it.each([
    ["https://handoff.example.com", `https://handoff.example.com/h/${ID}#${KEY}`],
    ["https://example.com/team-a/", `https://example.com/team-a/h/${ID}#${KEY}`],
    ["http://127.0.0.1:8787", `http://127.0.0.1:8787/h/${ID}#${KEY}`],
  ])("%s", (server, expected) => {
    expect(buildShareUrl(server, ID, KEY)).toBe(expected);
  });

  it.each([
    { name: "plain http server", server: "http://example.com", id: ID, key: KEY, reason: "invalid_option" },
    { name: "short id", server: "https://example.com", id: "abc", key: KEY, reason: "internal" },
    { name: "id with a slash", server: "https://example.com", id: `${ID}/x`, key: KEY, reason: "internal" },
    { name: "bad key", server: "https://example.com", id: ID, key: "short", reason: "internal" },
  ])("throws for $name", ({ server, id, key, reason }) => {
    expect(() => buildShareUrl(server, id, key)).toThrow(expect.objectContaining({ reason }));
  });

  it("round-trips through parseShareUrl", () => {
    const url = buildShareUrl("https://example.com/prefix", ID, KEY);
    expect(parseShareUrl(url)).toEqual({ ok: true, value: { server: "https://example.com/prefix", id: ID, key: KEY } });
  });
});

describe("parseShareUrl", () => {
  it.each([
    [`https://example.com/h/${ID}#${KEY}`, { server: "https://example.com", id: ID, key: KEY }],
    [`https://example.com/h/${ID}`, { server: "https://example.com", id: ID }],
    [`https://example.com/h/${ID}/#${KEY}`, { server: "https://example.com", id: ID, key: KEY }],
    [`https://example.com/h/${ID}#`, { server: "https://example.com", id: ID }],
    [`https://example.com/v1/handoffs/${ID}`, { server: "https://example.com", id: ID }],
    [`https://example.com/v1/handoffs/${ID}#${KEY}`, { server: "https://example.com", id: ID, key: KEY }],
    [`https://Example.com:443/a/b/h/${ID}?utm_source=chat#${KEY}`, { server: "https://example.com/a/b", id: ID, key: KEY }],
    [`http://127.0.0.1:8787/h/${ID}#${KEY}`, { server: "http://127.0.0.1:8787", id: ID, key: KEY }],
    [`  '${"https://example.com/h/" + ID}#${KEY}'  `, { server: "https://example.com", id: ID, key: KEY }],
    [`<https://example.com/h/${ID}#${KEY}>`, { server: "https://example.com", id: ID, key: KEY }],
  ])("%s", (text, expected) => {
    expect(parseShareUrl(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    { text: "not a url", reason: "usage", message: /^not a share URL/ },
    { text: "https://example.com/", reason: "usage", message: /has no \/h\/<id> part/ },
    { text: `https://example.com/x/${ID}`, reason: "usage", message: /has no \/h\/<id> part/ },
    { text: `https://example.com/h/${ID}/meta`, reason: "usage", message: /has no \/h\/<id> part/ },
    { text: "https://example.com/h/short#k", reason: "usage", message: /id in the share URL is malformed/ },
    { text: "https://example.com/h/", reason: "usage", message: /id in the share URL is malformed/ },
    { text: `https://example.com/h/${ID}!!`, reason: "usage", message: /id in the share URL is malformed/ },
    { text: `http://example.com/h/${ID}#${KEY}`, reason: "usage", message: /plain http to example.com/ },
    { text: `https://u:p@example.com/h/${ID}`, reason: "usage", message: /user name or password/ },
    { text: `file:///h/${ID}`, reason: "usage", message: /must be an https:\/\/ URL/ },
    { text: `https://example.com/h/${ID}#${KEY.slice(0, 40)}`, reason: "decrypt_failed", message: /^bad key format: .* got 40 characters/ },
    { text: `https://example.com/h/${ID}#${KEY}%20`, reason: "decrypt_failed", message: /^bad key format/ },
  ])("refuses $text", ({ text, reason, message }) => {
    const result = parseShareUrl(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe(reason);
    expect(result.error.message).toMatch(message);
  });
});

describe("isShareUrl", () => {
  it.each([
    [`https://example.com/h/${ID}#${KEY}`, true],
    ["HTTP://localhost/h/x", true],
    [`'https://example.com/h/${ID}'`, true],
    ["https://example.com/h/short", true],
    ["./handoff.md", false],
    ["/tmp/https://x", false],
    ["handoff.md", false],
    ["ftp://example.com/h/x", false],
  ])("%s -> %s", (text, expected) => {
    expect(isShareUrl(text)).toBe(expected);
  });
});
