import { CE_KEY_ORDER, type CeFields } from "./contract.js";

// What YAML 1.2 does not allow raw in a stream (outside its printable set: DEL, C1 controls,
// U+FFFE, U+FFFF), a BOM (only allowed before a document), and what some readers take as a
// line break (U+0085, U+2028, U+2029). JSON.stringify already escapes C0 controls.
const YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;
// A lone surrogate cannot be written as UTF-8 at all; YAML's \u escape of one is no character.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A YAML 1.2 double-quoted scalar that is also a JSON string literal, made only of characters a
 * strict YAML 1.2 parser accepts raw: JSON.stringify escapes quotes, backslashes and C0 controls;
 * DEL, C1 controls, U+FFFE/U+FFFF, a BOM and the Unicode line breaks are escaped as \uXXXX, and a
 * lone surrogate (which no UTF-8 file can hold) becomes U+FFFD, as the file's encoder would make it.
 *
 * @example
 * ```ts
 * quoteScalar('say "hi"\n') // "\"say \\\"hi\\\"\\n\""
 * quoteScalar("a\u007fb") // "\"a\\u007fb\""
 * ```
 */
export function quoteScalar(value: string): string {
  return JSON.stringify(value.replace(LONE_SURROGATE, "\ufffd")).replace(YAML_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Flat ce-handoff/v1 frontmatter, delimiters included: fixed key order, every string quoted, absent
 * optional fields omitted. Reading it back with the fast path gives the same values exactly.
 *
 * @example
 * ```ts
 * serializeCeFrontmatter({ artifact_contract: "ce-handoff/v1", created_at: "2026-07-10T09:30:00Z",
 *   title: "A: b", summary: "s", keywords: ["k"], cwd: "/w" });
 * // '---\nartifact_contract: "ce-handoff/v1"\n...\nkeywords: ["k"]\ncwd: "/w"\n---\n'
 * ```
 */
export function serializeCeFrontmatter(fields: CeFields): string {
  const lines = ["---"];
  for (const key of CE_KEY_ORDER) {
    const value = fields[key];
    if (value === undefined) continue;
    lines.push(`${key}: ${Array.isArray(value) ? `[${value.map(quoteScalar).join(", ")}]` : typeof value === "boolean" ? String(value) : quoteScalar(value)}`);
  }
  lines.push("---", "");
  return lines.join("\n");
}

/**
 * A whole handoff: frontmatter, one blank line, the body (ending in a newline).
 * `parseCeDocument` strips exactly that blank line, so the body round-trips.
 *
 * @example
 * ```ts
 * serializeCeDocument(fields, "# Auth\n\nState...") // "---\n...\n---\n\n# Auth\n\nState...\n"
 * ```
 */
export function serializeCeDocument(fields: CeFields, body: string): string {
  return `${serializeCeFrontmatter(fields)}\n${body.endsWith("\n") ? body : `${body}\n`}`;
}
