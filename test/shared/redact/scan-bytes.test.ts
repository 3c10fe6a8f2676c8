import { describe, expect, it } from "vitest";
import { sniffContent } from "../../../shared/redact/content.js";
import { inflateBounded } from "../../../shared/redact/inflate.js";
import { describeFindings, scanBytes, scanName, scanPatchPart } from "../../../shared/redact/scan-bytes.js";
import { gzip, png, randomBlob, sevenZipLookalike, tarOne, utf16be, utf16le, zipStored } from "../../fixtures/redact/encoded.js";
import { BASE64, HEX, positiveSamples, seeded } from "../../fixtures/redact/samples.js";

// Issue 34 "Capture": the scan of what a changes bundle carries sees what its bytes decode to.
const sample = positiveSamples(5).find((s) => s.rule === "aws-access-key-id");
if (sample === undefined) throw new Error("no aws-access-key-id sample");
const line = `${sample.text}\n`;
const rule = sample.rule;
const text = (value: string) => new TextEncoder().encode(value);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe("a secret the plain-text scan would miss is found where it was", () => {
  it.each([
    ["UTF-16LE with a byte-order mark", utf16le(line), "UTF-16LE"],
    ["UTF-16LE without one", utf16le(line, false), "UTF-16LE"],
    ["UTF-16BE with a byte-order mark", utf16be(line), "UTF-16BE"],
    ["UTF-16BE without one", utf16be(line, false), "UTF-16BE"],
    ["a base64 run in text", text(`config: ${base64(text(line))}\n`), "base64"],
    [
      "URL-safe base64 without padding",
      text(
        `blob=${base64(text(`${line}x`))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "")}`,
      ),
      "base64",
    ],
    ["gzip", gzip(line), "gzip"],
    ["base64 of gzip, as Helm and Kubernetes keep it", text(`data: ${base64(gzip(line))}\n`), "base64 > gzip"],
    ["UTF-16 inside gzip", gzip(utf16le(line)), "gzip > UTF-16LE"],
  ])("%s", async (_name, bytes, view) => {
    const scan = await scanBytes(bytes);
    expect(scan.findings).toEqual([{ rule, view }]);
    expect(scan.unscannable).toBeUndefined();
    // Without decoding, the plain scan of the same bytes finds nothing: the test is about the decoding.
    expect((await scanBytes(bytes, { maxExpandedBytes: 0 })).findings.filter((f) => f.view === "")).toEqual([]);
  });

  it("names a file whose name holds a secret", () => {
    const token = sample.secret;
    expect(scanName(`keys/${token}.json`)).toEqual([{ rule, view: "the file name" }]);
    expect(scanName("keys/README.md")).toEqual([]);
  });

  it("describes findings by rule and where, never by value", () => {
    expect(
      describeFindings([
        { rule: "jwt", view: "" },
        { rule, view: "gzip > base64" },
      ]),
    ).toBe(`jwt, ${rule} (in gzip > base64)`);
  });
});

describe("what the scan cannot read is named, after its plain text was scanned", () => {
  it.each([
    ["a zip archive", zipStored("creds.txt", line), "a zip archive"],
    ["a tar archive", tarOne("creds.txt", line), "a tar archive"],
    ["a gzipped tar archive", gzip(tarOne("creds.txt", "nothing\n")), "a tar archive (in gzip)"],
    ["a 7z archive", sevenZipLookalike(), "a 7z archive"],
    ["a PNG image", png(), "a PNG image"],
    ["a random blob", randomBlob(4096), "binary data"],
    ["a gzip that does not expand", Uint8Array.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3, 4, 5, 6, 7, 8]), "gzip-compressed data that does not expand"],
  ])("%s", async (_name, bytes, what) => {
    expect((await scanBytes(bytes)).unscannable).toBe(what);
  });

  it("a stored zip still has its plain text scanned: the secret inside is found", async () => {
    const scan = await scanBytes(zipStored("creds.txt", line));
    expect(scan.findings).toEqual([{ rule, view: "" }]);
  });

  it("a gzip bomb stops at the cap without expanding", async () => {
    const bomb = gzip(new Uint8Array(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(128 * 1024);
    expect((await scanBytes(bomb, { maxExpandedBytes: 1024 * 1024 })).unscannable).toBe("gzip-compressed data that expands past 1 MiB");
    expect(await inflateBounded(bomb, "gzip", 1024)).toEqual({ ok: false, why: "too_large" });
  });
});

describe("look-alikes stay readable text and find nothing", () => {
  const r = seeded(9);
  it.each([
    ["package-lock integrity lines", `"integrity": "sha512-${r.chars(86, BASE64)}=="\n`.repeat(50)],
    ["a data URI of a PNG", `<img src="data:image/png;base64,${base64(png())}">`],
    ["a base64 certificate", `ca: ${base64(text(`-----BEGIN CERTIFICATE-----\n${r.chars(64, BASE64)}\n-----END CERTIFICATE-----\n`))}`],
    ["commit ids and digests", `commit ${r.chars(40, HEX)}\nsha256 ${r.chars(64, HEX)}\n`],
    ["long paths and identifiers", `/home/dev/src/${"someLongDirectoryName/".repeat(8)}index.ts and ForTheTokenCacheOfTheWholeApplication\n`],
    ["Latin-1 text", Buffer.from("café, naïve, 100 °C\n", "latin1")],
  ])("%s", async (_name, value) => {
    const bytes = typeof value === "string" ? text(value) : value;
    expect(sniffContent(bytes).kind).toBe("text");
    expect(await scanBytes(bytes)).toEqual({ findings: [] });
  });
});

describe("a binary patch part", () => {
  it("that cannot be read is unscannable, never passed", async () => {
    const part = text("diff --git a/x.bin b/x.bin\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 12\nzzzz\n\n");
    expect((await scanPatchPart(part, undefined)).unscannable).toBe("a binary change: its binary patch could not be read");
  });

  it("with a secret in its header (a name) is caught before decoding", async () => {
    const part = text(`diff --git a/${sample.secret} b/${sample.secret}\nGIT binary patch\nnot base85\n`);
    expect((await scanPatchPart(part, undefined)).findings).toEqual([{ rule, view: "" }]);
  });
});
