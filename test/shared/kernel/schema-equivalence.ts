import { z } from "zod";

/**
 * Compares a zod schema with a public JSON Schema by meaning: type, required keys, enum/const,
 * the integer bounds the JSON Schema states, properties and items, and that every object
 * forbids unknown keys, as kernel's reference validator does. Returns the differences as readable lines (empty = equal).
 */
type Node = Record<string, any>;

function enumOf(node: Node): unknown[] | undefined {
  if (Array.isArray(node.enum)) return node.enum;
  if ("const" in node) return [node.const];
  return undefined;
}

function compare(ours: Node, theirs: Node, at: string, extraAllowed: ReadonlySet<string>, out: string[]): void {
  if (ours.type !== theirs.type) out.push(`${at}: type ${ours.type} vs ${theirs.type}`);
  const [e1, e2] = [enumOf(ours), enumOf(theirs)];
  if (JSON.stringify(e1) !== JSON.stringify(e2)) out.push(`${at}: enum ${JSON.stringify(e1)} vs ${JSON.stringify(e2)}`);
  for (const bound of ["minimum", "maximum"] as const) {
    if (theirs[bound] !== undefined && ours[bound] !== theirs[bound]) out.push(`${at}: ${bound} ${ours[bound]} vs ${theirs[bound]}`);
    // zod's own safe-integer bounds are fine; any other bound is a meaning the spec lacks.
    if (theirs[bound] === undefined && ours[bound] !== undefined && Math.abs(ours[bound]) !== Number.MAX_SAFE_INTEGER) {
      out.push(`${at}: extra ${bound} ${ours[bound]}`);
    }
  }
  if (theirs.type === "object") {
    // kernel's reference rejects unknown keys in every object that declares properties.
    if (ours.additionalProperties !== false) out.push(`${at}: allows unknown keys`);
    const r1 = [...(ours.required ?? [])].sort();
    const r2 = [...(theirs.required ?? [])].sort();
    if (JSON.stringify(r1) !== JSON.stringify(r2)) out.push(`${at}: required ${JSON.stringify(r1)} vs ${JSON.stringify(r2)}`);
    const p1: Node = ours.properties ?? {};
    const p2: Node = theirs.properties ?? {};
    for (const key of new Set([...Object.keys(p1), ...Object.keys(p2)])) {
      const path = at === "" ? key : `${at}.${key}`;
      if (!(key in p1)) out.push(`${path}: missing in ours`);
      else if (!(key in p2)) {
        if (!extraAllowed.has(path)) out.push(`${path}: not in the spec`);
      } else compare(p1[key], p2[key], path, extraAllowed, out);
    }
  }
  if (theirs.type === "array") compare(ours.items ?? {}, theirs.items ?? {}, `${at}[]`, extraAllowed, out);
}

export function schemaDifferences(schema: z.core.$ZodType, jsonSchema: Node, extraAllowed: string[] = []): string[] {
  const out: string[] = [];
  compare(z.toJSONSchema(schema, { io: "input" }) as Node, jsonSchema, "", new Set(extraAllowed), out);
  return out;
}
