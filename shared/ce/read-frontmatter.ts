import { type CeFrontmatter, ceFrontmatterSchema } from "./frontmatter-schema.js";
import { DISCOVERY_LIMITS, type FrontmatterLimits, type UnindexedCode, scanFrontmatter } from "./frontmatter-scan.js";
import { parseYamlMapping } from "./yaml-fallback.js";

export type { UnindexedCode } from "./frontmatter-scan.js";

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
export function readFrontmatter(head: string | Uint8Array, limits: FrontmatterLimits = DISCOVERY_LIMITS): FrontmatterRead {
  const scan = scanFrontmatter(head, limits);
  if (scan.kind === "unindexed") return scan;
  let data: Record<string, unknown>;
  if (scan.kind === "needs_yaml") {
    const parsed = parseYamlMapping(scan.text);
    if (!parsed.ok) return { kind: "unindexed", code: "invalid_yaml", reason: parsed.reason };
    data = parsed.value;
  } else {
    data = scan.data;
  }
  const checked = ceFrontmatterSchema().safeParse(data);
  return checked.success ? { kind: "indexed", data, frontmatter: checked.data, bytesRead: scan.bytesRead } : { kind: "indexed", data, bytesRead: scan.bytesRead };
}
