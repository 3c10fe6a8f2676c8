/**
 * The pieces of git's binary patch format a changes bundle needs, written from git's
 * documentation of `git diff --binary`: base85 lines (a length character, then five characters
 * per four bytes), zlib data (stored blocks are enough to write one), and a binary delta's
 * header (two little-endian base-128 sizes). With them the receiver turns an untracked file into
 * a new-file section git applies itself, and learns how many bytes a binary hunk expands to
 * before git inflates it. Pure: WebCrypto and the web streams API only.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/**
 * One line of git's base85: the decoded bytes, or undefined when the line is not one git writes.
 *
 * @example
 * ```ts
 * decodeBase85Line(encodeBase85Lines(new Uint8Array([1, 2, 3]))[0]!) // Uint8Array [1, 2, 3]
 * ```
 */
export function decodeBase85Line(line: string): Uint8Array | undefined {
  const head = line.charCodeAt(0);
  const length = head >= 65 && head <= 90 ? head - 64 : head >= 97 && head <= 122 ? head - 70 : 0;
  if (length === 0 || line.length !== 1 + Math.ceil(length / 4) * 5) return undefined;
  const out = new Uint8Array(Math.ceil(length / 4) * 4);
  for (let group = 0; group < out.length / 4; group++) {
    let value = 0;
    for (let k = 0; k < 5; k++) {
      const digit = VALUE.get(line[1 + group * 5 + k] ?? "");
      if (digit === undefined) return undefined;
      value = value * 85 + digit;
    }
    if (value > 0xffffffff) return undefined;
    new DataView(out.buffer).setUint32(group * 4, value);
  }
  return out.subarray(0, length);
}

/** `bytes` as git's base85 lines (52 bytes a line). */
export function encodeBase85Lines(bytes: Uint8Array): string[] {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 52) {
    const chunk = bytes.subarray(at, at + 52);
    const padded = new Uint8Array(Math.ceil(chunk.length / 4) * 4);
    padded.set(chunk);
    let line = String.fromCharCode(chunk.length <= 26 ? 64 + chunk.length : 70 + chunk.length);
    for (let group = 0; group < padded.length / 4; group++) {
      let value = new DataView(padded.buffer).getUint32(group * 4);
      const digits: string[] = [];
      for (let k = 0; k < 5; k++) {
        digits.unshift(ALPHABET[value % 85] ?? "0");
        value = Math.floor(value / 85);
      }
      line += digits.join("");
    }
    lines.push(line);
  }
  return lines;
}

/** `bytes` as a zlib stream of stored (uncompressed) blocks: what git inflates, without a compressor. */
export function zlibStored(bytes: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(bytes.length / 65535));
  const out = new Uint8Array(2 + blocks * 5 + bytes.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const chunk = bytes.subarray(block * 65535, (block + 1) * 65535);
    out[at] = block === blocks - 1 ? 1 : 0;
    out[at + 1] = chunk.length & 0xff;
    out[at + 2] = chunk.length >>> 8;
    out[at + 3] = ~chunk.length & 0xff;
    out[at + 4] = (~chunk.length >>> 8) & 0xff;
    out.set(chunk, at + 5);
    at += 5 + chunk.length;
  }
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  new DataView(out.buffer).setUint32(at, ((b << 16) | a) >>> 0);
  return out;
}

/**
 * A git blob id of `bytes` (SHA-1 for 40-hex repositories, SHA-256 for 64-hex ones).
 *
 * @example
 * ```ts
 * await blobId(new TextEncoder().encode("x\n"), 40) // "587be6b4c3f93f93c489c0111bba5596147a26cb"
 * ```
 */
export async function blobId(bytes: Uint8Array, hexLength: number): Promise<string> {
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const data = new Uint8Array(header.length + bytes.length);
  data.set(header);
  data.set(bytes, header.length);
  const digest = await crypto.subtle.digest(hexLength === 64 ? "SHA-256" : "SHA-1", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The size a binary delta produces, read from its header once inflated: the second of two
 * base-128 sizes. Only the first bytes are inflated (a delta may claim any size; it is never
 * expanded here). Undefined when the data is not zlib or too short to hold the header.
 */
export async function deltaResultSize(deflated: Uint8Array): Promise<number | undefined> {
  const reader = new Blob([deflated]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
  const head: number[] = [];
  try {
    while (head.length < 20) {
      const { done, value } = await reader.read();
      if (done) break;
      head.push(...value.subarray(0, 20 - head.length));
    }
  } catch {
    // A stream that breaks after the header still told us the size; before it, undefined below.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  let at = 0;
  const varint = (): number | undefined => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = head[at++];
      if (byte === undefined || scale > 2 ** 49) return undefined;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
  };
  return varint() === undefined ? undefined : varint();
}
