import { parseCeDocument } from "../ce/document.js";
import { CE_CONTRACT } from "../ce/contract.js";
import { parseStrictJson } from "../kernel/strict-json.js";
import { kernelFormat } from "../document/sniff.js";
import type { SourceDocument } from "./types.js";

/**
 * Reads what metadata a resume source has, whoever wrote it: a kernel manifest or checkpoint
 * (JSON with a `schema` field), Markdown with ce-handoff/v1 or any other frontmatter, Markdown
 * without it, or plain text. Authorship and format are never eligibility gates: anything
 * readable becomes a SourceDocument.
 *
 * @example
 * ```ts
 * parseSource('{"schema": "kernel.handoff/v1", ...}').format // "kernel.handoff/v1"
 * parseSource("---\nartifact_contract: \"ce-handoff/v1\"\n...").format // "ce-handoff/v1"
 * parseSource("notes: fix the build").format // "text"
 * ```
 */
export function parseSource(text: string): SourceDocument {
  const trimmed = text.replace(/^\ufeff/, "");
  if (/^\s*[{[]/.test(trimmed)) {
    const parsed = parseStrictJson(trimmed);
    if (parsed.ok && parsed.value !== null && typeof parsed.value === "object" && !Array.isArray(parsed.value)) {
      const value = parsed.value as Record<string, unknown>;
      const format = kernelFormat(value.schema);
      if (format) return { format, body: trimmed, metadata: kernelMetadata(value), manifest: value };
      return { format: "text", body: trimmed, metadata: {} };
    }
  }
  if (trimmed.startsWith("---")) {
    // A source named explicitly is read whole: the 64-line / 16 KiB bounds are discovery's.
    const doc = parseCeDocument(trimmed, { whole: true });
    if (Object.keys(doc.data).length > 0) {
      return { format: doc.data.artifact_contract === CE_CONTRACT ? CE_CONTRACT : "markdown", body: doc.body, metadata: doc.data };
    }
  }
  return { format: /^#{1,6}\s|\n#{1,6}\s/.test(trimmed) ? "markdown" : "text", body: trimmed, metadata: {} };
}

/** A manifest's identity and provenance, flattened into the metadata a report shows. */
function kernelMetadata(value: Record<string, unknown>): Record<string, unknown> {
  const identity = (value.identity ?? {}) as Record<string, unknown>;
  const provenance = (value.provenance ?? {}) as Record<string, unknown>;
  const metadata: Record<string, unknown> = { schema: value.schema };
  for (const [key, item] of Object.entries(identity)) metadata[key] = item;
  for (const key of ["branch", "commit", "dirty", "dirty_tree_sha256"]) if (provenance[key] !== undefined) metadata[key] = provenance[key];
  if (typeof identity.name === "string") metadata.title = identity.name;
  return metadata;
}
