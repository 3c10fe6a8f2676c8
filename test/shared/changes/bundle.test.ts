import { describe, expect, it } from "vitest";
import { type ChangesBundle, decodeChanges, encodeChanges, splitPatch, summarizeChanges, withoutPaths } from "../../../shared/changes/bundle.js";
import { PASSPHRASE_ENVELOPE_VERSION, openHandoff, sealHandoff } from "../../../shared/crypto/envelope.js";
import { PAYLOAD_WITH_CHANGES, UPGRADE_NOTICE, readPayload, withChanges } from "../../../shared/crypto/payload.js";

const utf8 = new TextEncoder();
const HEAD = "a".repeat(40);

function bundle(over: Partial<ChangesBundle["manifest"]> = {}): ChangesBundle {
  const patch = utf8.encode("diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n");
  const file = new Uint8Array([0, 1, 2, 255]);
  return {
    version: 2,
    manifest: {
      base: { head: HEAD, branch: "main" },
      patch_length: patch.length,
      tracked: [{ path: "x.txt", bytes: patch.length, binary: false, from_mode: "100644", to_mode: "100644" }],
      files: [{ path: "bin/new.dat", mode: "100644", length: file.length }],
      left_out: [{ path: ".env", reason: "holds a secret" }],
      ...over,
    },
    patch,
    files: [file],
  };
}

describe("changes bundle (format 2, and format 1 read)", () => {
  it("round-trips bytes exactly, and summarises files and sizes", () => {
    const original = bundle();
    const decoded = decodeChanges(encodeChanges(original));
    expect(decoded.ok && decoded.value).toEqual(original);
    expect(summarizeChanges(original)).toMatchObject({ untracked: [{ path: "bin/new.dat", bytes: 4 }], left_out: [{ path: ".env" }], total_bytes: original.patch.length + 4 });
  });

  it.each([
    ["an absolute path", "/etc/passwd"],
    ["a path that climbs out", "a/../../x"],
    ["a path into .git", ".git/hooks/post-checkout"],
    ["a path into .GIT", ".GIT/hooks/post-checkout"],
    ["NTFS's short name of .git", "GIT~1/config"],
    ["HFS+'s .git with an ignorable code point", ".g\u200cit/config"],
    ["a backslash", "a\\b"],
  ])("refuses %s from an untrusted sender", (_name, path) => {
    const bad = bundle({ files: [{ path, mode: "100644", length: 4 }] });
    const decoded = decodeChanges(encodeChanges(bad));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.message).toMatch(/^the changes bundle is malformed: manifest files\.0\.path/);
  });

  it("refuses lengths that do not add up, a second version, and bytes that are not a bundle", () => {
    const bytes = encodeChanges(bundle());
    const short = decodeChanges(bytes.subarray(0, bytes.length - 1));
    expect(!short.ok && short.error.message).toMatch(/do not add up/);
    const v3 = bytes.slice();
    v3[4] = 3;
    const version = decodeChanges(v3);
    expect(!version.ok && version.error.message).toBe("unsupported changes bundle version 3: this client reads versions 1 and 2");
    const other = decodeChanges(utf8.encode("# not a bundle"));
    expect(!other.ok && other.error.message).toMatch(/marker/);
  });

  it("reads format 1 (no modes stated); each format refuses the other's shape", () => {
    const v1 = bundle();
    v1.version = 1;
    for (const t of v1.manifest.tracked) {
      delete t.from_mode;
      delete t.to_mode;
    }
    const read = decodeChanges(encodeChanges(v1));
    expect(read.ok && read.value).toEqual(v1);
    const v1WithModes = encodeChanges({ ...bundle(), version: 1 });
    expect(decodeChanges(v1WithModes)).toMatchObject({ ok: false, error: { message: "the changes bundle is malformed: manifest: from_mode and to_mode belong to format 2" } });
    const v2WithoutModes = encodeChanges({ ...v1, version: 2 });
    expect(decodeChanges(v2WithoutModes)).toMatchObject({ ok: false, error: { message: "the changes bundle is malformed: manifest tracked path x.txt: format 2 states its from_mode and to_mode" } });
  });

  it("withoutPaths drops what a policy forbids, with its part of the patch, and names it", () => {
    const original = bundle();
    expect(withoutPaths(original, () => undefined)).toBe(original);
    const noX = withoutPaths(original, (path) => (path === "x.txt" ? "forbidden" : undefined));
    expect(noX.manifest).toMatchObject({ patch_length: 0, tracked: [], files: [{ path: "bin/new.dat" }], left_out: [{ path: ".env" }, { path: "x.txt", reason: "forbidden" }] });
    expect(noX.patch.length).toBe(0);
    const noFile = withoutPaths(original, (path) => (path.startsWith("bin/") ? "forbidden" : undefined));
    expect(noFile.files).toEqual([]);
    expect(noFile.patch).toEqual(original.patch);
    const decoded = decodeChanges(encodeChanges(noFile));
    expect(decoded.ok && decoded.value).toEqual(noFile);
  });

  it("splits a patch per file in git's order, and leaves a part it cannot name undefined", () => {
    const patch = utf8.encode("diff --git a/a b/a\n+1\ndiff --git a/b c b/b c\n+2\n");
    const [a, b] = splitPatch(patch, ["a", "b c"]);
    expect(new TextDecoder().decode(a)).toBe("diff --git a/a b/a\n+1\n");
    expect(new TextDecoder().decode(b)).toBe("diff --git a/b c b/b c\n+2\n");
    expect(splitPatch(patch, ["a", "other"])[1]).toBeUndefined();
    expect(splitPatch(patch, ["a"])).toEqual([undefined]);
  });
});

describe("payload format 2 inside the envelope", () => {
  const meta = { format: "ce-handoff/v1", file_name: "retry.md", created_at: "2026-12-01T10:00:00Z" };
  const document = utf8.encode("# Retry\n\n## Objective\nShip it.\n");

  it("carries the document and the bundle; a version-1 reader sees the upgrade notice, never bundle bytes", async () => {
    const changes = encodeChanges(bundle());
    const framed = withChanges(document, changes);
    const { ciphertext, key } = await sealHandoff(framed.body, { ...meta, ...framed.meta }, { trailing: framed.trailing });
    const opened = await openHandoff(ciphertext, key);
    // What a reader that knows only payload format 1 takes as the document:
    expect(new TextDecoder().decode(opened.plaintext)).toBe(UPGRADE_NOTICE);
    const payload = readPayload(opened);
    expect(payload.ok && payload.value).toEqual({ document, changes });
  });

  it("a passphrase envelope (v2) carries payload format 2 the same way: the two versions are independent", async () => {
    const changes = encodeChanges(bundle());
    const framed = withChanges(document, changes);
    const { ciphertext, key, passKey } = await sealHandoff(framed.body, { ...meta, ...framed.meta }, { trailing: framed.trailing, passphrase: "correct horse" });
    expect(ciphertext[4]).toBe(PASSPHRASE_ENVELOPE_VERSION);
    const opened = await openHandoff(ciphertext, key, passKey);
    expect(opened.meta.payload).toBe(PAYLOAD_WITH_CHANGES);
    const payload = readPayload(opened);
    expect(payload.ok && payload.value).toEqual({ document, changes });
  });

  it("a payload format newer than this client is a clear 'unsupported payload format' error, not garbage", async () => {
    const framed = withChanges(document, encodeChanges(bundle()));
    const { ciphertext, key } = await sealHandoff(framed.body, { ...meta, ...framed.meta, payload: 3 }, { trailing: framed.trailing });
    const payload = readPayload(await openHandoff(ciphertext, key));
    expect(payload.ok).toBe(false);
    if (!payload.ok) {
      expect(payload.error.reason).toBe("decrypt_failed");
      expect(payload.error.message).toBe("unsupported payload format 3: this client reads payload formats 1 and 2");
      expect(payload.error.hint).toMatch(/^upgrade the handoff CLI/);
    }
  });

  it("format 1 is the body alone, as before", async () => {
    const { ciphertext, key } = await sealHandoff(document, meta);
    const payload = readPayload(await openHandoff(ciphertext, key));
    expect(payload.ok && payload.value).toEqual({ document });
  });
});
