import { parsePatch } from "../changes/patch.js";
import { type Content, decodeText, sniffContent } from "./content.js";
import { binaryPatchSides } from "./git-binary-patch.js";
import { scanText } from "./index.js";
import { inflateBounded } from "./inflate.js";
import type { RedactOptions } from "./types.js";

/**
 * The secret scan of bytes that travel as they are (a changes bundle's files and patch), which
 * `scanText` alone would read wrong: it sees what the bytes decode to. UTF-16 text (with or
 * without a byte-order mark) is decoded, gzip and zlib data expanded (bounded), base64 runs in
 * any text decoded and scanned when they decode to text or compressed data, and a binary patch's
 * sides (the new contents and the old, committed ones) rebuilt. What it cannot read (an archive,
 * an image, a random blob) is reported as unscannable, after its plain ASCII was scanned anyway.
 */

/** One rule found, and where: `""` in the bytes as they are, else the decodings, outermost first (`gzip > base64`). */
export interface ByteFinding {
  rule: string;
  view: string;
}

export interface ByteScan {
  findings: ByteFinding[];
  /** Set when some content could not be read to scan: what it is (`a zip archive`, `a PNG image (old contents)`). */
  unscannable?: string;
}

export interface ByteScanOptions extends RedactOptions {
  /** The most bytes an expansion (gzip, a binary patch's side) may produce. Default 16 MiB. */
  maxExpandedBytes?: number;
}

const MIB = 1024 * 1024;
/** Decodings inside decodings (base64 of gzip of base64 …) stop here. */
const MAX_DEPTH = 4;
/** A base64 run this long decodes to 18 bytes or more: shorter ones cannot hold a key worth the cost. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;

class Scan {
  readonly findings: ByteFinding[] = [];
  unscannable: string | undefined;

  constructor(private readonly options: ByteScanOptions) {}

  get maxBytes(): number {
    return this.options.maxExpandedBytes ?? 16 * MIB;
  }

  add(rules: Iterable<string>, path: readonly string[]): void {
    const view = path.join(" > ");
    for (const rule of rules) if (!this.findings.some((f) => f.rule === rule && f.view === view)) this.findings.push({ rule, view });
  }

  refuse(what: string, path: readonly string[]): void {
    this.unscannable ??= path.length > 0 ? `${what} (in ${path.join(" > ")})` : what;
  }

  /** Bytes of any kind. Inside base64 only what decodes to text or compressed data counts: the rest was never text. */
  async bytes(bytes: Uint8Array, path: readonly string[], inBase64: boolean): Promise<void> {
    const content = sniffContent(bytes);
    switch (content.kind) {
      case "text":
        return this.text(decodeText(bytes, content), path);
      case "utf-16":
        return this.text(decodeText(bytes, content), [...path, content.endian === "le" ? "UTF-16LE" : "UTF-16BE"]);
      case "compressed":
        return this.compressed(bytes, content, path, inBase64);
      case "archive":
      case "binary":
        if (inBase64) return;
        // A secret in plain ASCII inside it (a stored zip entry, a string in an executable) is
        // still found: Latin-1 maps every byte to one character.
        this.add(rulesIn(new TextDecoder("latin1").decode(bytes), this.options), path);
        this.refuse(content.name, path);
    }
  }

  private async compressed(bytes: Uint8Array, content: Extract<Content, { kind: "compressed" }>, path: readonly string[], inBase64: boolean): Promise<void> {
    const label = content.format === "gzip" ? "gzip" : "zlib";
    if (path.length >= MAX_DEPTH) return this.refuse(`${content.name} nested too deep`, path);
    const inflated = await inflateBounded(bytes, content.format, this.maxBytes);
    if (inflated.ok) return this.bytes(inflated.bytes, [...path, label], false);
    // Random base64 can start like a zlib header; only real compressed data is worth refusing.
    if (inBase64 && inflated.why === "corrupt") return;
    this.refuse(inflated.why === "too_large" ? `${content.name} that expands past ${this.maxBytes / MIB} MiB` : `${content.name} that does not expand`, path);
  }

  private async text(text: string, path: readonly string[]): Promise<void> {
    this.add(rulesIn(text, this.options), path);
    if (path.length >= MAX_DEPTH) return;
    // The runs that decode to text are scanned together, one text per decoding: one scan instead
    // of one per run (a file holds many short runs).
    const decodedTexts = new Map<string, string[]>();
    const runs = new RegExp(BASE64_RUN.source, "g");
    for (let run = runs.exec(text); run !== null; run = runs.exec(text)) {
      const decoded = decodeBase64(run[0]);
      if (decoded === undefined) continue;
      const content = sniffContent(decoded);
      if (content.kind === "compressed") {
        await this.bytes(decoded, [...path, "base64"], true);
      } else if ((content.kind === "text" && isDecodedText(decoded)) || content.kind === "utf-16") {
        const label = content.kind === "utf-16" ? (content.endian === "le" ? "UTF-16LE" : "UTF-16BE") : "";
        const texts = decodedTexts.get(label) ?? [];
        texts.push(decodeText(decoded, content));
        decodedTexts.set(label, texts);
      }
    }
    for (const [label, texts] of decodedTexts) await this.text(texts.join("\n"), label === "" ? [...path, "base64"] : [...path, "base64", label]);
  }
}

/**
 * Stricter than `sniffContent` for what a base64 run decodes to: a third of short random runs
 * pass for text by its 1 % of control characters, but almost none is printable ASCII or valid
 * UTF-8 throughout, as real encoded text (a config file, a key, JSON) is.
 */
function isDecodedText(bytes: Uint8Array): boolean {
  let printable = 0;
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
    if (byte < 0x7f) printable++;
  }
  if (printable === bytes.length) return true;
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function rulesIn(text: string, options: RedactOptions): string[] {
  return Object.keys(scanText(text, options).counts);
}

/** Standard or URL-safe base64, padded or not; undefined when it cannot be base64. */
function decodeBase64(run: string): Uint8Array | undefined {
  let body = run.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (body.length % 4 === 1) body = body.slice(0, -1);
  try {
    const binary = atob(body + "=".repeat((4 - (body.length % 4)) % 4));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Scans bytes as they would travel: their text, and what they decode to.
 *
 * @example
 * ```ts
 * await scanBytes(utf16leBytesOf("GITHUB_TOKEN=" + token))
 * // { findings: [{ rule: "github-token", view: "UTF-16LE" }] }
 * await scanBytes(zipBytes) // { findings: [], unscannable: "a zip archive (or a jar, docx, xlsx, apk)" }
 * ```
 */
export async function scanBytes(bytes: Uint8Array, options: ByteScanOptions = {}): Promise<ByteScan> {
  const scan = new Scan(options);
  await scan.bytes(bytes, [], false);
  return scan.unscannable === undefined ? { findings: scan.findings } : { findings: scan.findings, unscannable: scan.unscannable };
}

/**
 * Scans one file's part of a `git diff --binary` patch. A text part is scanned as bytes (its
 * names, its added and removed lines, decoded as above). A binary part's names are scanned as
 * text, and both sides it carries are rebuilt and scanned (`current`, the working-tree file,
 * anchors a delta the part does not hold whole); a side that cannot be rebuilt is unscannable.
 *
 * @example
 * ```ts
 * await scanPatchPart(part, workingBytes) // { findings: [{ rule: "aws-access-key-id", view: "old contents" }] }
 * ```
 */
export async function scanPatchPart(part: Uint8Array, current: Uint8Array | undefined, options: ByteScanOptions = {}): Promise<ByteScan> {
  const text = new TextDecoder("latin1").decode(part);
  const marker = text.indexOf("\nGIT binary patch\n");
  if (marker < 0) return scanBytes(part, options);
  const scan = new Scan(options);
  scan.add(rulesIn(text.slice(0, marker), options), []);
  const parsed = parsePatch(part);
  const entry = "entries" in parsed && parsed.entries.length === 1 ? parsed.entries[0] : undefined;
  const sides = entry === undefined ? { ok: false as const, why: "its binary patch could not be read" } : await binaryPatchSides(entry.binary_hunks, current, scan.maxBytes);
  if (!sides.ok) {
    scan.refuse(`a binary change: ${sides.why}`, []);
  } else {
    for (const { side, bytes } of sides.sides) await scan.bytes(bytes, side === "old" ? ["the old contents"] : [], false);
  }
  return scan.unscannable === undefined ? { findings: scan.findings } : { findings: scan.findings, unscannable: scan.unscannable };
}

/**
 * The rules a file's path trips: a secret in a file name travels in the manifest and the patch.
 *
 * @example
 * ```ts
 * scanName(`keys/${awsKeyId}.json`) // [{ rule: "aws-access-key-id", view: "the file name" }]
 * ```
 */
export function scanName(path: string, options: RedactOptions = {}): ByteFinding[] {
  return rulesIn(path, options).map((rule) => ({ rule, view: "the file name" }));
}

/**
 * Findings in words, rule ids and where they were, never the values.
 *
 * @example
 * ```ts
 * describeFindings([{ rule: "jwt", view: "" }, { rule: "github-token", view: "gzip > base64" }])
 * // "jwt, github-token (in gzip > base64)"
 * ```
 */
export function describeFindings(findings: readonly ByteFinding[]): string {
  return findings.map((f) => (f.view === "" ? f.rule : `${f.rule} (in ${f.view})`)).join(", ");
}
