import { CE_CONTRACT } from "../ce/contract.js";
import { scanFrontmatter } from "../ce/frontmatter-scan.js";
import { parseStrictJson } from "../kernel/strict-json.js";
import { startsLikeJson } from "./json-sniff.js";

/**
 * The formats a document is read as (a resume source, a published body, a file `show` prints);
 * anything unrecognised is "markdown" or "text".
 */
export type SourceFormat = "ce-handoff/v1" | "kernel.handoff/v1" | "kernel.checkpoint/v1" | "markdown" | "text";

/** What the envelope records about a document: its format, and when and under what title it was made. */
export interface DocumentLabel {
  format: SourceFormat;
  created_at?: string;
  title?: string;
}

/**
 * Document sniffing, defined once: whether text is meant as JSON (a kernel manifest or
 * checkpoint) and which format a document is. validate, render, context, publish, show and
 * resume all decide by these.
 */

// The JSON tests live alone (json-sniff.ts), so a path that reads only JSON (validate of a kernel document)
// loads no frontmatter scanner.
export { startsLikeJson } from "./json-sniff.js";

/** A word that plainly meant to name a handoff file (a separator or a handoff extension). */
export function namedLikeHandoffFile(word: string): boolean {
  return /[\\/]/.test(word) || /\.(md|markdown|txt|json)$/i.test(word);
}

/**
 * Names a document's format and reads its creation time and title, with no schema or YAML
 * library behind it (publishing runs this on its start-up path): a kernel manifest or checkpoint
 * by its `schema`, ce-handoff/v1 or other Markdown by flat frontmatter, else Markdown or text.
 * Frontmatter in general YAML still counts as Markdown; only its fields go unread.
 *
 * @example
 * ```ts
 * detectFormat('---\nartifact_contract: "ce-handoff/v1"\ntitle: "Auth"\n---\n# Auth') // { format: "ce-handoff/v1", title: "Auth" }
 * detectFormat("plain notes") // { format: "text" }
 * ```
 */
export function detectFormat(text: string): DocumentLabel {
  const trimmed = text.replace(/^\ufeff/, "");
  if (startsLikeJson(trimmed)) {
    const parsed = parseStrictJson(trimmed);
    if (parsed.ok && parsed.value !== null && typeof parsed.value === "object" && !Array.isArray(parsed.value)) {
      const value = parsed.value as { schema?: unknown; identity?: { created?: unknown; name?: unknown } };
      const format = kernelFormat(value.schema);
      if (format) return withStrings({ format }, value.identity?.created, value.identity?.name);
    }
    return { format: "text" };
  }
  const scan = scanFrontmatter(trimmed);
  if (scan.kind === "indexed") {
    return withStrings({ format: scan.data.artifact_contract === CE_CONTRACT ? CE_CONTRACT : "markdown" }, scan.data.created_at, scan.data.title);
  }
  if (scan.kind === "needs_yaml") return { format: "markdown" };
  return { format: /^#{1,6}\s|\n#{1,6}\s/.test(trimmed) ? "markdown" : "text" };
}

/** The kernel document a JSON `schema` field names, if any. */
export function kernelFormat(schema: unknown): "kernel.handoff/v1" | "kernel.checkpoint/v1" | undefined {
  return schema === "kernel.handoff/v1" || schema === "kernel.checkpoint/v1" ? schema : undefined;
}

function withStrings(label: DocumentLabel, created: unknown, title: unknown): DocumentLabel {
  if (typeof created === "string") label.created_at = created;
  if (typeof title === "string") label.title = title;
  return label;
}
