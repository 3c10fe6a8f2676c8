import { type CeFrontmatter, ceFrontmatterSchema } from "./frontmatter-schema.js";
import { DISCOVERY_LIMITS, WHOLE_FILE } from "./frontmatter-scan.js";
import { readFrontmatter } from "./read-frontmatter.js";

/** One finding, addressed like a JSON path: `frontmatter.created_at`, `frontmatter.keywords[1]`, `body`. */
export interface DocumentIssue {
  path: string;
  message: string;
}

export interface CeDocument {
  /** The frontmatter when it satisfies ce-handoff/v1. */
  frontmatter: CeFrontmatter | undefined;
  /** Whatever keys the frontmatter held (empty when there was none). */
  data: Record<string, unknown>;
  /** The Markdown after the frontmatter (the blank line we write after it removed), or the whole text. */
  body: string;
  /** Every way the document misses the contract; empty means valid. */
  issues: DocumentIssue[];
  /** Set when the frontmatter could not be parsed at all (bad YAML, not UTF-8): not a contract miss. */
  unparseable?: string;
  /** Read whole: set when discovery's bounded read (64 lines / 16 KiB) would not index it. */
  undiscoverable?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A whole ce-handoff/v1 document, checked against its contract. The frontmatter is read with
 * the same bounds as discovery, so a document that validates is also one discovery can index.
 *
 * @example
 * ```ts
 * const doc = parseCeDocument(text);
 * for (const issue of doc.issues) console.log(`${issue.path}: ${issue.message}`);
 * // frontmatter.created_at: must be ISO-8601 UTC
 * ```
 */
export function parseCeDocument(text: string, options: { whole?: boolean } = {}): CeDocument {
  const read = readFrontmatter(text, options.whole ? WHOLE_FILE : DISCOVERY_LIMITS);
  if (read.kind === "unindexed") {
    const base = { frontmatter: undefined, data: {}, body: text };
    switch (read.code) {
      case "no_opener":
        return { ...base, issues: [{ path: "frontmatter", message: "is missing: the first line must be exactly ---" }] };
      case "no_closing_delimiter":
        return { ...base, issues: [{ path: "frontmatter", message: `${read.reason}, so discovery cannot index it` }] };
      case "not_utf8":
      case "invalid_yaml":
        return { ...base, issues: [{ path: "frontmatter", message: read.reason }], unparseable: read.reason };
    }
  }
  const consumed = decoder.decode(encoder.encode(text).subarray(0, read.bytesRead)).length;
  const body = text.slice(consumed).replace(/^\r?\n/, "");
  const issues: DocumentIssue[] = [];
  const checked = ceFrontmatterSchema().safeParse(read.data);
  if (!checked.success) {
    for (const issue of checked.error.issues) issues.push({ path: issuePath(["frontmatter", ...issue.path]), message: issue.message });
  }
  if (body.trim() === "") issues.push({ path: "body", message: "must not be empty" });
  const doc: CeDocument = { frontmatter: checked.success ? checked.data : undefined, data: read.data, body, issues };
  if (options.whole) {
    const bounded = readFrontmatter(text);
    if (bounded.kind === "unindexed") doc.undiscoverable = `${bounded.reason}, so discovery cannot index it (a file named explicitly is still read whole)`;
  }
  return doc;
}

/** `["frontmatter", "keywords", 1]` -> `frontmatter.keywords[1]`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}
