import { inflateBounded } from "./inflate.js";

/**
 * The contents a `git diff --binary` hunk carries, rebuilt so they can be scanned. A binary patch
 * holds a forward hunk (what rebuilds the new file) and, optionally, a reverse hunk (what
 * rebuilds the old one: for a changed or deleted file, its committed contents). Each is `literal
 * N` (the whole file) or `delta N` (git's copy/insert delta against the other side),
 * zlib-deflated; shared/changes/patch.ts reads them out of git's base85.
 */

/** A binary hunk as shared/changes/patch.ts parses it: its kind, declared size and deflated data. */
export interface BinaryHunk {
  kind: "literal" | "delta";
  /** The size the data inflates to (the file for a literal, the delta for a delta). */
  size: number;
  data: Uint8Array;
}

/** git's delta: source size, target size (base-128 varints), then copy and insert commands. */
function applyDelta(base: Uint8Array, delta: Uint8Array, maxBytes: number): Uint8Array | undefined {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = delta[at++];
      if (byte === undefined || shift > 49) return -1;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) return value;
    }
  };
  const sourceSize = varint();
  const targetSize = varint();
  if (sourceSize !== base.length || targetSize < 0 || targetSize > maxBytes) return undefined;
  const out = new Uint8Array(targetSize);
  let written = 0;
  while (at < delta.length) {
    const command = delta[at++] ?? 0;
    if (command & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++) if (command & (1 << bit)) offset += (delta[at++] ?? 0) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (command & (0x10 << bit)) size += (delta[at++] ?? 0) * 2 ** (8 * bit);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || written + size > targetSize) return undefined;
      out.set(base.subarray(offset, offset + size), written);
      written += size;
    } else if (command !== 0) {
      if (at + command > delta.length || written + command > targetSize) return undefined;
      out.set(delta.subarray(at, at + command), written);
      at += command;
      written += command;
    } else {
      return undefined;
    }
  }
  return written === targetSize ? out : undefined;
}

/** A side's bytes once inflated, or why not. */
async function inflateHunk(hunk: BinaryHunk, maxBytes: number): Promise<Uint8Array | string> {
  if (hunk.size > maxBytes) return `expands past ${maxBytes} bytes`;
  const inflated = await inflateBounded(hunk.data, "deflate", maxBytes);
  if (!inflated.ok) return inflated.why === "too_large" ? `expands past ${maxBytes} bytes` : "its data does not inflate";
  if (inflated.bytes.length !== hunk.size) return "its data does not have the size its header says";
  return inflated.bytes;
}

/** The sides a binary patch carries, or why they could not be rebuilt (then nothing may be sent unscanned). */
export type BinarySides = { ok: true; sides: { side: "new" | "old"; bytes: Uint8Array }[] } | { ok: false; why: string };

/**
 * Rebuilds what a binary patch part's hunks carry: the new contents (forward hunk) and, when the
 * part has a reverse hunk, the old contents. A delta needs the other side; `current` (the file as
 * it is in the working tree, which the forward hunk rebuilds) is used when the patch does not hold
 * that side whole. Everything is bounded by `maxBytes`.
 *
 * @example
 * ```ts
 * await binaryPatchSides(entry.binary_hunks, workingBytes, 4 * 1024 * 1024)
 * // { ok: true, sides: [{ side: "new", bytes }, { side: "old", bytes }] }
 * ```
 */
export async function binaryPatchSides(hunks: readonly BinaryHunk[], current: Uint8Array | undefined, maxBytes: number): Promise<BinarySides> {
  const [forward, reverse] = hunks;
  if (forward === undefined) return { ok: false, why: "its binary patch has no hunk" };
  const inflatedForward = await inflateHunk(forward, maxBytes);
  const inflatedReverse = reverse ? await inflateHunk(reverse, maxBytes) : undefined;
  if (typeof inflatedForward === "string") return { ok: false, why: `its new side ${inflatedForward}` };
  if (typeof inflatedReverse === "string") return { ok: false, why: `its old side ${inflatedReverse}` };
  let next = forward.kind === "literal" ? inflatedForward : current;
  let old = reverse?.kind === "literal" ? inflatedReverse : undefined;
  // One delta is rebuilt from the other side; with two deltas the working file anchors the new side.
  if (reverse?.kind === "delta" && next !== undefined && inflatedReverse) old = applyDelta(next, inflatedReverse, maxBytes);
  if (forward.kind === "delta") {
    if (old === undefined) return { ok: false, why: "its new side is a delta against contents the patch does not carry" };
    const rebuilt = applyDelta(old, inflatedForward, maxBytes);
    if (rebuilt === undefined) return { ok: false, why: "its new side's delta does not apply" };
    next = rebuilt;
  }
  if (reverse !== undefined && old === undefined) return { ok: false, why: "its old side could not be rebuilt" };
  const sides: { side: "new" | "old"; bytes: Uint8Array }[] = [];
  if (next !== undefined) sides.push({ side: "new", bytes: next });
  if (old !== undefined) sides.push({ side: "old", bytes: old });
  return { ok: true, sides };
}
