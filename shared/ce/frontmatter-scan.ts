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

/** Where the frontmatter is, before anything parses it: its text between the delimiters. */
export type FrontmatterBlock = { kind: "block"; text: string; bytesRead: number } | Extract<FrontmatterScan, { kind: "unindexed" }>;

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
  const block = locateFrontmatter(head, limits);
  if (block.kind !== "block") return block;
  const data = parseFlat(block.text);
  return data === undefined ? { kind: "needs_yaml", text: block.text, bytesRead: block.bytesRead } : { kind: "indexed", data, bytesRead: block.bytesRead };
}

/**
 * The bounds and delimiter checks of {@link scanFrontmatter} without parsing: the frontmatter's
 * text (strict UTF-8) or why there is none. Discovery parses the text into its index directly.
 */
export function locateFrontmatter(head: string | Uint8Array, limits: FrontmatterLimits = DISCOVERY_LIMITS): FrontmatterBlock {
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
    if (line > 1 && isDelimiter) return decodeBlock(bytes.subarray(firstLineEnd(bytes), start), newline === -1 ? end : end + 1);
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

function decodeBlock(block: Uint8Array, bytesRead: number): FrontmatterBlock {
  const text = strictUtf8Text(block);
  return text === undefined ? unindexed("not_utf8", "the frontmatter is not valid UTF-8") : { kind: "block", text, bytesRead };
}

/** The bytes as text when they are valid UTF-8 (a BOM kept as a character), else undefined. */
export function strictUtf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

// A JSON string literal with no escape, no quote and no control character inside.
const PLAIN_STRING = /^"[^"\\\u0000-\u001f]*"$/;

/**
 * The fast path: `key: <JSON literal>` per line, which is what we write. JSON is a subset of YAML
 * flow syntax with the same meaning, so a line that parses here means the same under YAML.
 * Returns undefined to hand the block to the YAML fallback (including on duplicate keys, which
 * YAML then rejects rather than us picking a winner).
 */
function parseFlat(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const flat = walkFlat(text, (key, plain, literal) => {
    if (Object.hasOwn(out, key)) return false;
    const value = plain ?? literalValue(literal!);
    if (value === NOT_FLAT) return false;
    // A "__proto__" key stays data instead of setting the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
    return true;
  });
  return flat ? out : undefined;
}

// One `key: literal` line and its line break: the key (`[A-Za-z_][A-Za-z0-9_-]*`), a colon, a
// space or tab, then either a quoted string with nothing to unescape (captured without its
// quotes: what we write most) or any other literal, to the end of the line. A regular expression,
// not a loop over characters: discovery runs this for thousands of candidates in a process that
// has only just started, and the expression runs as compiled code from the first call, while a
// JavaScript loop runs in the interpreter until it gets hot (a third longer over 10,000 blocks).
const FLAT_LINE = /([A-Za-z_][A-Za-z0-9_-]*):[ \t](?:"([^"\\\u0000-\u001f]*)"\r?(?:\n|$)|([^\n]*)(?:\n|$))/y;

const LONE_CR = /\r(?!\n)/;

/**
 * The flat shape's line grammar, shared by {@link parseFlat} and discovery's index
 * (shared/discover/index-flat.ts): each line is blank, a `#` comment, or `key: literal`. `entry`
 * gets each key with either the value of a plain quoted string or the literal's text (one
 * trailing CR removed), and says whether the line is acceptable; false from it, or a line outside
 * the grammar, makes the whole block not flat (false).
 */
export function walkFlat(text: string, entry: (key: string, plain: string | undefined, literal: string | undefined) => boolean): boolean {
  // A CR that is not part of a CRLF is a line break to YAML, and one our fallback refuses: the
  // block is not flat, and YAML decides.
  if (LONE_CR.test(text)) return false;
  let at = 0;
  while (at < text.length) {
    FLAT_LINE.lastIndex = at;
    const line = FLAT_LINE.exec(text);
    if (line !== null) {
      at = FLAT_LINE.lastIndex;
      const literal = line[3];
      if (!entry(line[1]!, line[2], literal?.endsWith("\r") ? literal.slice(0, -1) : literal)) return false;
      continue;
    }
    let end = text.indexOf("\n", at);
    const next = end === -1 ? text.length : end + 1;
    if (end === -1) end = text.length;
    // A comment, or a blank line (a CR alone included), and nothing else.
    if (text.charCodeAt(at) !== 35 /* # */ && text.slice(at, end).trim() !== "") return false;
    at = next;
  }
  return true;
}

/** What {@link literalValue} gives for a literal that is not JSON (the block is then not flat). */
export const NOT_FLAT: unique symbol = Symbol("not flat");

/** The value of a JSON literal (surrounding whitespace allowed), or NOT_FLAT. */
export function literalValue(literal: string): unknown {
  const trimmed = literal.trim();
  if (trimmed === "") return NOT_FLAT;
  // Same value as JSON.parse, without it.
  if (PLAIN_STRING.test(trimmed)) return trimmed.slice(1, -1);
  try {
    return JSON.parse(trimmed);
  } catch {
    return NOT_FLAT;
  }
}

function unindexed(code: UnindexedCode, reason: string): Extract<FrontmatterScan, { kind: "unindexed" }> {
  return { kind: "unindexed", code, reason };
}
