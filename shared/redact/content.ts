/**
 * What a file's bytes are, as far as the secret scan is concerned: text it can read (UTF-8,
 * Latin-1, UTF-16 with or without a byte-order mark), compressed data it can expand and read
 * (gzip, zlib), or content it cannot read (an archive, an image, a random blob). Decided from the
 * bytes alone: magic numbers first, then the bytes' own statistics, never the file's name.
 */

export type Content =
  | { kind: "text" }
  | { kind: "utf-16"; endian: "le" | "be"; bom: boolean }
  | { kind: "compressed"; format: "gzip" | "deflate"; name: string }
  | { kind: "archive"; name: string }
  | { kind: "binary"; name: string };

const ascii = (text: string): number[] => [...text].map((ch) => ch.charCodeAt(0));

/** Magic numbers at offset 0 (or `at`): archives first, then binary formats worth naming in a message. */
const SIGNATURES: { bytes: number[]; at?: number; kind: "archive" | "binary"; name: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: "archive", name: "a zip archive" },
  { bytes: [0x50, 0x4b, 0x05, 0x06], kind: "archive", name: "a zip archive" },
  { bytes: [0x50, 0x4b, 0x07, 0x08], kind: "archive", name: "a zip archive" },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: "archive", name: "a 7z archive" },
  { bytes: ascii("Rar!\x1a\x07"), kind: "archive", name: "a rar archive" },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: "archive", name: "xz-compressed data" },
  { bytes: ascii("BZh"), kind: "archive", name: "bzip2-compressed data" },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: "archive", name: "zstd-compressed data" },
  { bytes: [0x04, 0x22, 0x4d, 0x18], kind: "archive", name: "lz4-compressed data" },
  { bytes: ascii("LZIP"), kind: "archive", name: "lzip-compressed data" },
  { bytes: [0x1f, 0x9d], kind: "archive", name: "compress (.Z) data" },
  { bytes: ascii("ustar"), at: 257, kind: "archive", name: "a tar archive" },
  { bytes: ascii("!<arch>\n"), kind: "archive", name: "an ar archive (or a .deb)" },
  { bytes: ascii("MSCF"), kind: "archive", name: "a cab archive" },
  { bytes: [0xed, 0xab, 0xee, 0xdb], kind: "archive", name: "an rpm package" },
  { bytes: ascii("070701"), kind: "archive", name: "a cpio archive" },
  { bytes: ascii("070707"), kind: "archive", name: "a cpio archive" },
  { bytes: ascii("xar!"), kind: "archive", name: "a xar archive (or a .pkg)" },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: "binary", name: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], kind: "binary", name: "a JPEG image" },
  { bytes: ascii("GIF8"), kind: "binary", name: "a GIF image" },
  { bytes: ascii("%PDF-"), kind: "binary", name: "a PDF document" },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: "binary", name: "an ELF executable" },
  { bytes: ascii("MZ"), kind: "binary", name: "a Windows executable" },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: "binary", name: "a Mach-O executable" },
  { bytes: [0x00, 0x61, 0x73, 0x6d], kind: "binary", name: "a WebAssembly module" },
  { bytes: ascii("SQLite format 3\0"), kind: "binary", name: "an SQLite database" },
];

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, i) => bytes[at + i] === byte);
}

/** A zlib stream's two-byte header: deflate, a window of at most 32 KiB, and a valid check. */
function isZlib(bytes: Uint8Array): boolean {
  const [cmf, flg] = [bytes[0] ?? 0, bytes[1] ?? 0];
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && (flg & 0x20) === 0;
}

/**
 * UTF-16 without a byte-order mark: text in it is mostly ASCII, so one byte of every pair is
 * zero. Judged on the first 4 KiB: at least 60 % zeros on one side and at most 5 % on the other.
 */
function utf16Endian(bytes: Uint8Array): "le" | "be" | undefined {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros >= pairs * 0.6 && evenZeros <= pairs * 0.05) return "le";
  if (evenZeros >= pairs * 0.6 && oddZeros <= pairs * 0.05) return "be";
  return undefined;
}

/**
 * Text, by its bytes: no NUL, and at most 1 % control characters other than tab, newline,
 * carriage return, form feed and escape (a random blob has about 12 %).
 */
function looksLikeText(bytes: Uint8Array): boolean {
  let controls = 0;
  for (const byte of bytes) {
    if (byte === 0) return false;
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) || byte === 0x7f) controls++;
  }
  return controls <= Math.max(1, bytes.length / 100);
}

/**
 * What `bytes` are to the secret scan.
 *
 * @example
 * ```ts
 * sniffContent(new TextEncoder().encode("TOKEN=x\n")) // { kind: "text" }
 * sniffContent(new Uint8Array([0x1f, 0x8b, 8, 0])) // { kind: "compressed", format: "gzip", name: "gzip-compressed data" }
 * sniffContent(new Uint8Array([0x50, 0x4b, 3, 4])) // { kind: "archive", name: "a zip archive" }
 * ```
 */
export function sniffContent(bytes: Uint8Array): Content {
  if (startsWith(bytes, [0xff, 0xfe]) && !startsWith(bytes, [0xff, 0xfe, 0, 0])) return { kind: "utf-16", endian: "le", bom: true };
  if (startsWith(bytes, [0xfe, 0xff])) return { kind: "utf-16", endian: "be", bom: true };
  if (startsWith(bytes, [0x1f, 0x8b, 0x08])) return { kind: "compressed", format: "gzip", name: "gzip-compressed data" };
  for (const signature of SIGNATURES) {
    if (startsWith(bytes, signature.bytes, signature.at)) return { kind: signature.kind, name: signature.name };
  }
  if (bytes.length >= 2 && isZlib(bytes) && !looksLikeText(bytes.subarray(0, 64))) return { kind: "compressed", format: "deflate", name: "zlib-compressed data" };
  const endian = utf16Endian(bytes);
  if (endian !== undefined) return { kind: "utf-16", endian, bom: false };
  if (looksLikeText(bytes)) return { kind: "text" };
  return { kind: "binary", name: "binary data" };
}

/**
 * The text of bytes `sniffContent` called text or UTF-16: UTF-8 when they are valid UTF-8, else
 * Latin-1 (one character per byte, so nothing is lost to a decoding error).
 *
 * @example
 * ```ts
 * decodeText(new Uint8Array([0x68, 0, 0x69, 0]), { kind: "utf-16", endian: "le", bom: false }) // "hi"
 * ```
 */
export function decodeText(bytes: Uint8Array, content: Content): string {
  if (content.kind === "utf-16") return new TextDecoder(content.endian === "le" ? "utf-16le" : "utf-16be").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}
