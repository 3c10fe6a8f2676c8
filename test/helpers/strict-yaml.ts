import { parseDocument } from "yaml";

/**
 * A strict YAML 1.2 check of a Markdown file's frontmatter. The `yaml` package, even with
 * `strict: true`, accepts characters YAML 1.2 forbids in a stream (DEL, C1 controls, U+FFFE,
 * U+FFFF, surrogates) and a BOM inside a document, so those are checked here first (YAML 1.2
 * §5.1 c-printable, §5.2 byte order mark); then the text must parse with no error or warning.
 * Returns the problems; empty means a strict YAML 1.2 parser accepts it.
 */

// c-printable: #x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
const NOT_PRINTABLE = /[^\t\n\r\u0020-\u007e\u0085\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

export function strictYaml12Problems(frontmatter: string): string[] {
  const problems: string[] = [];
  const bad = NOT_PRINTABLE.exec(frontmatter);
  if (bad) problems.push(`U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} at offset ${bad.index} is outside YAML 1.2's printable set`);
  const bom = frontmatter.indexOf("\ufeff");
  if (bom !== -1) problems.push(`a byte order mark at offset ${bom}, inside the document`);
  const doc = parseDocument(frontmatter, { strict: true, uniqueKeys: true, version: "1.2" });
  for (const e of [...doc.errors, ...doc.warnings]) problems.push(`${e.code}: ${e.message}`);
  return problems;
}

/** The YAML between a Markdown file's `---` delimiters, or undefined when it has none. */
export function frontmatterOf(text: string): string | undefined {
  const match = /^---\n([\s\S]*?\n)---\n/.exec(text);
  return match?.[1];
}
