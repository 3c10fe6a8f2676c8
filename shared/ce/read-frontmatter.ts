import { FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES } from "./contract.js";
import { type CeFrontmatter, CeFrontmatterSchema } from "./frontmatter-schema.js";
import { parseYamlMapping } from "./yaml-fallback.js";

export { FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES } from "./contract.js";

/** Why a candidate has no usable index: the contract lists it as unindexed, never skips it. */
export type UnindexedCode = "no_opener" | "no_closing_delimiter" | "not_utf8" | "invalid_yaml";

export type FrontmatterRead =
  | {
      kind: "indexed";
      /** Every key the frontmatter holds, ours or another tool's. */
      data: Record<string, unknown>;
      /** Present when `data` satisfies ce-handoff/v1. */
      frontmatter?: CeFrontmatter;
      /** Bytes consumed, through the closing delimiter's line break. */
      bytesRead: number;
    }
  | { kind: "unindexed"; code: UnindexedCode; reason: string };

const NEWLINE = 0x0a;
const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The bounded frontmatter read that discovery does: the first line must be exactly `---` (a
 * trailing \r allowed), and the closing `---` must come within the first 64 lines and 16 KiB, or
 * the file is unindexed and nothing further is read. `---js`, `---json` and a BOM are not `---`,
 * so such openers are never evaluated. Our own flat shape parses as one JSON literal per line;
 * anything else goes through locked-down YAML.
 *
 * Pass the first bytes of a file (at most FRONTMATTER_MAX_BYTES are looked at) or a string.
 *
 * @example
 * ```ts
 * readFrontmatter('---\ntitle: "x"\n---\nbody') // { kind: "indexed", data: { title: "x" }, bytesRead: 19 }
 * readFrontmatter("---js\n...")                 // { kind: "unindexed", code: "no_opener", ... }
 * ```
 */
export function readFrontmatter(head: string | Uint8Array): FrontmatterRead {
  // Each UTF-16 unit is at least one UTF-8 byte, so this prefix covers the byte bound.
  const bytes = typeof head === "string" ? encoder.encode(head.slice(0, FRONTMATTER_MAX_BYTES + 1)) : head;
  // A head of the full 16 KiB may be a cut: then its last line could continue ("---" of "----").
  const wholeInput = bytes.length < FRONTMATTER_MAX_BYTES;
  let start = 0;
  for (let line = 1; line <= FRONTMATTER_MAX_LINES; line++) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline;
    if (end > FRONTMATTER_MAX_BYTES) break;
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
    `no closing --- within the first ${FRONTMATTER_MAX_LINES} lines and ${FRONTMATTER_MAX_BYTES / 1024} KiB`,
  );
}

function isDashes(bytes: Uint8Array, start: number, end: number): boolean {
  const len = end > start && bytes[end - 1] === 0x0d ? end - 1 - start : end - start;
  return len === 3 && bytes[start] === 0x2d && bytes[start + 1] === 0x2d && bytes[start + 2] === 0x2d;
}

function firstLineEnd(bytes: Uint8Array): number {
  return bytes.indexOf(NEWLINE) + 1;
}

function parseBlock(block: Uint8Array, bytesRead: number): FrontmatterRead {
  let text: string;
  try {
    text = strictUtf8.decode(block);
  } catch {
    return unindexed("not_utf8", "the frontmatter is not valid UTF-8");
  }
  let data = parseFlat(text);
  if (data === undefined) {
    const parsed = parseYamlMapping(text);
    if (!parsed.ok) return unindexed("invalid_yaml", parsed.reason);
    data = parsed.value;
  }
  const checked = CeFrontmatterSchema.safeParse(data);
  return checked.success ? { kind: "indexed", data, frontmatter: checked.data, bytesRead } : { kind: "indexed", data, bytesRead };
}

const FLAT_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S.*?)[ \t]*$/;

/**
 * The fast path: `key: <JSON literal>` per line, which is what we write. JSON is a subset of YAML
 * flow syntax with the same meaning, so a line that parses here means the same under YAML.
 * Returns undefined to hand the block to the YAML fallback (including on duplicate keys, which
 * YAML then rejects rather than us picking a winner).
 */
function parseFlat(text: string): Record<string, unknown> | undefined {
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "" || line.startsWith("#")) continue;
    const match = FLAT_LINE.exec(line);
    if (!match) return undefined;
    const [, key, literal] = match as unknown as [string, string, string];
    if (seen.has(key)) return undefined;
    seen.add(key);
    try {
      entries.push([key, JSON.parse(literal)]);
    } catch {
      return undefined;
    }
  }
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(entries);
}

function unindexed(code: UnindexedCode, reason: string): FrontmatterRead {
  return { kind: "unindexed", code, reason };
}
