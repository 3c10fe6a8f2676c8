import { CE_KEY_ORDER, type CeFields } from "./contract.js";

/**
 * A YAML double-quoted scalar that is also a JSON string literal. JSON.stringify already escapes
 * quotes, backslashes and C0 controls; the characters below are line breaks or invisible marks to
 * some YAML and JavaScript readers, so they are escaped too and the line stays one line everywhere.
 *
 * @example
 * ```ts
 * quoteScalar('say "hi"\n') // "\"say \\\"hi\\\"\\n\""
 * ```
 */
export function quoteScalar(value: string): string {
  return JSON.stringify(value).replace(/[\u0085\u2028\u2029\ufeff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
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
    lines.push(`${key}: ${Array.isArray(value) ? `[${value.map(quoteScalar).join(", ")}]` : quoteScalar(value)}`);
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
