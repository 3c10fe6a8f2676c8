import { parseDocument } from "yaml";

/**
 * General YAML for frontmatter other tools wrote (plain scalars, single quotes, block lists).
 * Locked down: YAML 1.2 core schema (no timestamps, no custom or language tags), duplicate keys are
 * an error, few aliases (a billion-laughs document stops early), and any warning, such as an
 * unknown tag, rejects the whole thing rather than guessing.
 *
 * @example
 * ```ts
 * parseYamlMapping("title: 'x'\nkeywords:\n  - a\n") // { ok: true, value: { title: "x", keywords: ["a"] } }
 * ```
 */
export function parseYamlMapping(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  try {
    const doc = parseDocument(text, { version: "1.2", schema: "core", uniqueKeys: true, prettyErrors: false, strict: true });
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) return { ok: false, reason: `invalid YAML: ${firstLine(problem.message)}` };
    const value: unknown = doc.toJS({ maxAliasCount: 10 });
    if (value === null || value === undefined) return { ok: true, value: {} };
    if (typeof value !== "object" || Array.isArray(value)) return { ok: false, reason: "frontmatter is not a mapping of keys to values" };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (cause) {
    return { ok: false, reason: `invalid YAML: ${firstLine(cause instanceof Error ? cause.message : String(cause))}` };
  }
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
