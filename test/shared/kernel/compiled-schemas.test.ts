import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { COMPILED_FILE, compileKernelSchemas, kernelValidatorRoots } from "../../../scripts/compile-kernel-schemas.js";
import { kernelCheckpointSchema } from "../../../shared/kernel/checkpoint-schema.js";
import { checkContextReceipt, checkKernelCheckpoint, checkKernelHandoff } from "../../../shared/kernel/compiled-schemas.js";
import type { SchemaCheck } from "../../../shared/kernel/issues.js";
import { formatJsonPath } from "../../../shared/kernel/json-path.js";
import { contextReceiptSchema } from "../../../shared/kernel/receipt-schema.js";
import { migrateContextReceipt } from "../../../shared/kernel/receipt.js";
import type { FoundIssue } from "../../../shared/kernel/schema-issues.js";
import { kernelSchemas } from "../../../shared/kernel/schema.js";
import { parseKernelJson } from "../../../shared/kernel/validate.js";
import { jsonInt, zodCheck } from "../../../shared/kernel/zod-check.js";
import { buildCorpus, fullCheckpoint, fullManifest, fullReceipt } from "../../helpers/kernel-corpus.js";
import { exampleManifest } from "./fixtures.js";

// The CLI ran these schemas interpreted (its vendored zod is jitless): the reference does too.
z.config({ jitless: true });

/**
 * The validators of compiled-schemas.ts are compiled from the zod schemas at development time
 * (scripts/compile-kernel-schemas.js). They must be the schemas: the committed file is what the
 * compiler writes today, and on every document below the compiled pass and zod's parse (with
 * issues.ts's words) report the same issues and, when there are none, the same value.
 */

const modules = { kernelSchemas, kernelCheckpointSchema, contextReceiptSchema };
const PASSES: [string, SchemaCheck<unknown>, SchemaCheck<unknown>][] = [
  ["kernel.handoff/v1", checkKernelHandoff, zodCheck(kernelSchemas().kernelHandoffSchema)],
  ["kernel.checkpoint/v1", checkKernelCheckpoint, zodCheck(kernelCheckpointSchema())],
  ["kernel.context-receipt/v1", checkContextReceipt, zodCheck(contextReceiptSchema())],
];

/** What one pass says of `value`: its issues as sorted lines, and its value when it found none. */
function verdict(check: SchemaCheck<unknown>, value: unknown): { issues: string[]; value?: string } {
  const found: FoundIssue[] = [];
  const parsed = check(value, found);
  const issues = found.map((issue) => `${formatJsonPath(issue.segments)}: ${issue.message}`).sort();
  // JSON text keeps key order, which a deep equality ignores: zod returns its shape's order.
  return issues.length > 0 ? { issues } : { issues, value: JSON.stringify(parsed) };
}

/** Where the two passes differ on `value`, with both verdicts (empty when they agree): as `only` if given, else as each kind. */
function disagreements(value: unknown, only?: unknown): string[] {
  const out: string[] = [];
  for (const [name, compiled, zod] of PASSES) {
    if (only !== undefined && only !== name) continue;
    const [ours, theirs] = [verdict(compiled, value), verdict(zod, value)];
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) out.push(`${name}: compiled ${JSON.stringify(ours)} vs zod ${JSON.stringify(theirs)}`);
  }
  return out;
}

/** The kind of kernel document `value` says it is, if it is one: a corpus case is read as that kind. */
const kindOf = (value: unknown) => {
  const id = (value as { schema?: unknown } | null)?.schema;
  return PASSES.some(([name]) => name === id) ? id : undefined;
};

describe("compiled-schemas.ts", () => {
  it("is what the compiler writes from today's zod schemas (else run npm run kernel:schemas)", () => {
    const committed = readFileSync(fileURLToPath(new URL(`../../../${COMPILED_FILE}`, import.meta.url)), "utf8");
    expect(compileKernelSchemas(kernelValidatorRoots(modules)) === committed, `${COMPILED_FILE} is stale: run npm run kernel:schemas`).toBe(true);
  });

  const compile = (schema: unknown) => () => compileKernelSchemas([{ name: "checkX", base: "x", schema, type: "X", from: "./x.js", source: "a test" }]);
  it.each([
    ["a string with a check", z.strictObject({ a: z.string().check(z.minLength(1)) }), /x\.a: is a zod string with the option `checks`/],
    ["an object that strips unknown keys", z.object({ a: z.string() }), /x: is an object that is not strict/],
    ["a loose object", z.looseObject({ a: z.string() }), /x: is an object that is not strict/],
    ["a nullable", z.strictObject({ a: z.nullable(z.string()) }), /x\.a: is a zod nullable, which this compiler does not know/],
    ["a union", z.strictObject({ a: z.union([z.string(), z.number()]) }), /x\.a: is a zod union/],
    ["an exclusive bound", z.strictObject({ a: z.number().check(z.gt(1)) }), /x\.a: has a greater_than check other than an inclusive, finite bound/],
    ["a refine of its own", z.strictObject({ a: z.number().check(z.refine((n) => n > 1)) }), /x\.a: has a custom check this compiler does not know/],
    ["an int() format", z.strictObject({ a: z.int() }), /x\.a: is a zod number with the option/],
    ["an optional array item", z.strictObject({ a: z.array(z.optional(z.string())) }), /x\.a\[\]: is optional outside an object's shape/],
    ["an enum of numbers", z.strictObject({ a: z.literal(1) }), /x\.a: is a literal of other than strings/],
    ["a schema with its own error", z.strictObject({ a: z.string({ error: "no" }) }), /x\.a: is a zod string with the option `error`/],
    ["an aborting refine", z.strictObject({ a: z.number().check(z.refine(Number.isInteger, { abort: true })) }), /x\.a: has a check with `when` or `abort`/],
  ])("refuses %s rather than guess", (_name, schema, message) => {
    expect(compile(schema)).toThrow(message);
  });

  it("compiles what it knows: the integer of JSON Schema, with its bounds", () => {
    expect(compile(z.strictObject({ a: z.optional(jsonInt({ min: 1, max: 3 })) }))()).toContain('if (!Number.isInteger(x)) issues.push({ segments: [...q, key], message: "must be an integer" });');
  });
});

describe("the compiled passes say what zod says", () => {
  /** Valid documents of each kind, the start of the mutations below. */
  const VALID: [string, Record<string, unknown>][] = [
    ["the real manifest", exampleManifest()],
    ["a full manifest", fullManifest()],
    ["a full checkpoint", fullCheckpoint()],
    ["a full receipt", fullReceipt()],
  ];

  it("on every document of the conformance corpus (as the kind its schema field names, else as each)", () => {
    const found: string[] = [];
    let read = 0;
    for (const c of buildCorpus()) {
      const parsed = parseKernelJson(c.text);
      if (!parsed.ok) continue;
      read++;
      for (const line of disagreements(parsed.value, kindOf(parsed.value))) found.push(`${c.name}: ${line}`);
      // A receipt is validated as migrated (receipt.ts).
      const migrated = migrateContextReceipt(parsed.value).value;
      if (migrated !== parsed.value) for (const line of disagreements(migrated, kindOf(migrated))) found.push(`${c.name} (migrated): ${line}`);
    }
    expect(read).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it.each(VALID)("on %s, which is valid, with the same value", (_name, doc) => {
    const name = (doc as { schema: string }).schema;
    const [, compiled] = PASSES.find(([id]) => id === name)!;
    expect(verdict(compiled, doc).issues).toEqual([]);
    expect(disagreements(doc)).toEqual([]);
  });

  // Mutations of valid documents reach every field: a random node gets one of these.
  const unknownKey = fc.constantFrom("extra", "__proto__", "constructor", "toString", "", "a b");
  const number = fc.oneof(
    fc.constantFrom(0, -1, 1, 2, 3, 4, 1.5, -0.5, 0.5, 2 ** 53, 2 ** 60, -(2 ** 60), 1e308),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -5, max: 5 }),
  );
  const replacement = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    number,
    fc.constantFrom(
      "sealed",
      "bounded",
      "advisory",
      "inherited",
      "required",
      "invalidated",
      "current_branch",
      "argv",
      "normal",
      "protected",
      "unknown",
      "resolved",
      "within_budget",
      "kernel.handoff/v1",
      "kernel.checkpoint/v1",
    ),
    fc.constantFrom(null, true, false, "", [], {}, [""], [{}]),
  );
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("delete" as const) }),
    fc.record({ kind: fc.constant("add" as const), key: unknownKey, value: fc.jsonValue({ maxDepth: 1 }) }),
    fc.record({ kind: fc.constant("replace" as const), value: replacement }),
  );

  type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

  /** Every container in `doc` with its keys (objects) or indexes (arrays). */
  function places(doc: unknown, out: { parent: any; key: string | number }[] = []): { parent: any; key: string | number }[] {
    if (Array.isArray(doc)) doc.forEach((item, i) => (out.push({ parent: doc, key: i }), places(item, out)));
    else if (doc !== null && typeof doc === "object") for (const [key, value] of Object.entries(doc)) out.push({ parent: doc, key }), places(value, out);
    return out;
  }

  function mutate(doc: unknown, steps: { at: number; change: Mutation }[]): unknown {
    const copy = structuredClone(doc);
    for (const { at, change } of steps) {
      const all = places(copy);
      if (all.length === 0) break;
      const { parent, key } = all[at % all.length]!;
      if (change.kind === "delete") {
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key];
      } else if (change.kind === "replace") parent[key] = structuredClone(change.value);
      else {
        const target = parent[key];
        // An own key, even __proto__, as JSON.parse makes it.
        const into = target !== null && typeof target === "object" && !Array.isArray(target) ? target : parent;
        if (!Array.isArray(into)) Object.defineProperty(into, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
      }
    }
    return copy;
  }

  const steps = fc.array(fc.record({ at: fc.nat(), change: mutation }), { minLength: 1, maxLength: 3 });
  it.each(VALID)("on mutations of %s (deleted and unknown keys, other types, fractional and out-of-range numbers, other enum values)", (_name, doc) => {
    fc.assert(
      fc.property(steps, (changes) => {
        expect(disagreements(mutate(doc, changes))).toEqual([]);
      }),
      { numRuns: 300, seed: 26 },
    );
  });

  it("on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(disagreements(value)).toEqual([]);
        expect(disagreements({ schema: "kernel.handoff/v1", identity: value, context: value, workflow: { phases: value } })).toEqual([]);
      }),
      { numRuns: 300, seed: 26 },
    );
  });
});
