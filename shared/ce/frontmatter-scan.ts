import { FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES } from "./contract.js";

/**
 * The bounded frontmatter scan, with no schema or YAML library behind it: discovery runs it over
 * thousands of files and must not load either. `readFrontmatter` (read-frontmatter.ts) builds on it.
 */

/** Why a candidate has no usable index: the contract lists it as unindexed, never skips it. */
export type UnindexedCode = "no_opener" | "no_closing_delimiter" | "not_utf8" | "invalid_yaml";

export type FrontmatterScan =
  | { kind: "indexed"; data: Record<string, unknown>; bytesRead: number }
  /** Within bounds and UTF-8, but not our flat `key: <JSON>` shape: general YAML must decide. */
  | { kind: "needs_yaml"; text: string; bytesRead: number }
  | { kind: "unindexed"; code: UnindexedCode; reason: string };

/** How far a frontmatter read may go for its closing `---`. */
export interface FrontmatterLimits {
  lines: number;
  bytes: number;
}

/** Discovery's bounds: the contract's "at most the first 64 lines or 16 KiB". */
export const DISCOVERY_LIMITS: FrontmatterLimits = { lines: FRONTMATTER_MAX_LINES, bytes: FRONTMATTER_MAX_BYTES };

/** A file the user named is read whole (up to the caller's file size limit): the bounds are discovery's. */
export const WHOLE_FILE: FrontmatterLimits = { lines: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY };

const NEWLINE = 0x0a;
const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The bounded frontmatter read that discovery does: the first line must be exactly `---` (a
 * trailing \r allowed), and the closing `---` must come within the first 64 lines and 16 KiB, or
 * the file is unindexed and nothing further is read. `---js`, `---json` and a BOM are not `---`,
 * so such openers are never evaluated. Our own flat shape parses as one JSON literal per line;
 * anything else comes back as `needs_yaml` for the caller's locked-down YAML.
 *
 * Pass the first bytes of a file (at most FRONTMATTER_MAX_BYTES are looked at) or a string.
 *
 * @example
 * ```ts
 * scanFrontmatter('---\ntitle: "x"\n---\nbody') // { kind: "indexed", data: { title: "x" }, bytesRead: 19 }
 * scanFrontmatter("---\ntitle: x\n---\n")      // { kind: "needs_yaml", text: "title: x\n", bytesRead: 17 }
 * scanFrontmatter("---js\n...")                 // { kind: "unindexed", code: "no_opener", ... }
 * ```
 */
export function scanFrontmatter(head: string | Uint8Array, limits: FrontmatterLimits = DISCOVERY_LIMITS): FrontmatterScan {
  // Each UTF-16 unit is at least one UTF-8 byte, so this prefix covers the byte bound.
  const bytes = typeof head === "string" ? encoder.encode(head.slice(0, limits.bytes + 1)) : head;
  // A head of the full 16 KiB may be a cut: then its last line could continue ("---" of "----").
  const wholeInput = bytes.length < limits.bytes;
  let start = 0;
  for (let line = 1; line <= limits.lines; line++) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline;
    // The line's newline must be inside the first `limits.bytes` bytes, as a head read of that size holds it.
    if (newline === -1 ? end > limits.bytes : newline >= limits.bytes) break;
    if (newline === -1 && !wholeInput) break;
    const isDelimiter = isDashes(bytes, start, end);
    if (line === 1 && !isDelimiter) return unindexed("no_opener", "the first line is not exactly ---");
    if (line > 1 && isDelimiter) return parseBlock(bytes.subarray(firstLineEnd(bytes), start), newline === -1 ? end : end + 1);
    if (newline === -1) break;
    start = newline + 1;
  }
  if (bytes.length === 0) return unindexed("no_opener", "the file is empty");
  return unindexed(
    "no_closing_delimiter",
    limits.bytes === Number.POSITIVE_INFINITY ? "no closing --- after the opening one" : `no closing --- within the first ${limits.lines} lines and ${limits.bytes / 1024} KiB`,
  );
}

function isDashes(bytes: Uint8Array, start: number, end: number): boolean {
  const len = end > start && bytes[end - 1] === 0x0d ? end - 1 - start : end - start;
  return len === 3 && bytes[start] === 0x2d && bytes[start + 1] === 0x2d && bytes[start + 2] === 0x2d;
}

function firstLineEnd(bytes: Uint8Array): number {
  return bytes.indexOf(NEWLINE) + 1;
}

function parseBlock(block: Uint8Array, bytesRead: number): FrontmatterScan {
  let text: string;
  try {
    text = strictUtf8.decode(block);
  } catch {
    return unindexed("not_utf8", "the frontmatter is not valid UTF-8");
  }
  const data = parseFlat(text);
  return data === undefined ? { kind: "needs_yaml", text, bytesRead } : { kind: "indexed", data, bytesRead };
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
// A JSON string literal with no escape, no quote and no control character inside.
const PLAIN_STRING = /^"[^"\\\u0000-\u001f]*"$/;

/**
 * The fast path: `key: <JSON literal>` per line, which is what we write. JSON is a subset of YAML
 * flow syntax with the same meaning, so a line that parses here means the same under YAML.
 * Returns undefined to hand the block to the YAML fallback (including on duplicate keys, which
 * YAML then rejects rather than us picking a winner). Written with indexOf and slices rather
 * than split and a regex per line: discovery runs it for every candidate.
 */
function parseFlat(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const next = end + 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const lineStart = start;
    start = next;
    // Positions, not a sliced line: only the key and the literal become strings.
    if (text.charCodeAt(lineStart) === 35 /* # */) continue;
    let colon = text.indexOf(":", lineStart);
    if (colon >= end) colon = -1;
    if (colon === -1 && text.slice(lineStart, end).trim() === "") continue;
    const gap = text.charCodeAt(colon + 1);
    if (colon <= lineStart || colon + 1 >= end || (gap !== 32 && gap !== 9)) return undefined;
    const key = text.slice(lineStart, colon);
    const literal = text.slice(colon + 2, end).trim();
    if (!KEY.test(key) || literal === "" || Object.hasOwn(out, key)) return undefined;
    let value: unknown;
    if (PLAIN_STRING.test(literal)) {
      // What we write most: a quoted string with nothing to unescape. Same value as JSON.parse.
      value = literal.slice(1, -1);
    } else {
      try {
        value = JSON.parse(literal);
      } catch {
        return undefined;
      }
    }
    // A "__proto__" key stays data instead of setting the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

function unindexed(code: UnindexedCode, reason: string): FrontmatterScan {
  return { kind: "unindexed", code, reason };
}
