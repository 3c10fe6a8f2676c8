// Compiles the kernel documents' zod schemas (shared/kernel: schema.ts, checkpoint-schema.ts, receipt-schema.ts,
// still the one definition) into plain TypeScript validators, shared/kernel/compiled-schemas.ts,
// so `handoff validate` neither loads zod nor builds a schema (issue 26: on Node 20, about 30 ms of
// CPU of a 92 ms command). Only the constructs those schemas use are known; any other one (a check,
// an option, a kind of schema) stops the generation, because a guess would be a validator that
// quietly says something else than zod. What "the same" means is zod's own parse with the words of
// shared/kernel/issues.ts: test/shared/kernel/compiled-schemas.test.ts compares both.
//
//   npm run kernel:schemas          regenerate the file
//   npm run kernel:schemas -- --check   exit 1 if the committed file is stale
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export const COMPILED_FILE = "shared/kernel/compiled-schemas.ts";

/**
 * The documents to compile: the exported function's name, the zod schema, its TypeScript type
 * and where that type is declared (imported as a type only, so zod stays out at run time).
 */
export function kernelValidatorRoots({ kernelSchemas, kernelCheckpointSchema, contextReceiptSchema }) {
  return [
    { name: "checkKernelHandoff", base: "handoff", schema: kernelSchemas().kernelHandoffSchema, type: "KernelHandoff", from: "./schema.js", source: "kernelSchemas().kernelHandoffSchema (schema.ts)" },
    {
      name: "checkKernelCheckpoint",
      base: "checkpoint",
      schema: kernelCheckpointSchema(),
      type: "KernelCheckpoint",
      from: "./checkpoint-schema.js",
      source: "kernelCheckpointSchema() (checkpoint-schema.ts)",
    },
    { name: "checkContextReceipt", base: "receipt", schema: contextReceiptSchema(), type: "ContextReceipt", from: "./receipt-schema.js", source: "contextReceiptSchema() (receipt-schema.ts)" },
  ];
}

/** The def keys each known kind of schema may have; any other key is an option this compiler does not know. */
const KNOWN_DEF_KEYS = {
  string: ["type"],
  boolean: ["type"],
  number: ["type", "checks"],
  literal: ["type", "values"],
  enum: ["type", "entries"],
  array: ["type", "element"],
  optional: ["type", "innerType"],
  object: ["type", "shape", "catchall"],
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const camel = (key) => key.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ? c.toUpperCase() : "")).replace(/^./, (c) => c.toUpperCase());

class Refused extends Error {}
const refuse = (where, what) => {
  throw new Refused(`${COMPILED_FILE}: ${where || "(document)"}: ${what}; teach scripts/compile-kernel-schemas.js this construct (and its test) before using it`);
};

function defOf(schema, where) {
  const def = schema?._zod?.def;
  if (!def || typeof def.type !== "string") refuse(where, "is not a zod schema");
  const known = KNOWN_DEF_KEYS[def.type];
  if (!known) refuse(where, `is a zod ${def.type}, which this compiler does not know`);
  for (const key of Object.keys(def)) if (!known.includes(key)) refuse(where, `is a zod ${def.type} with the option \`${key}\``);
  return def;
}

/** A number's checks as zod runs them: each one whose issue does not abort, in order, after a number was read. */
function numberChecks(def, where) {
  const checks = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.when !== undefined || c.abort) refuse(where, `has a check with \`when\` or \`abort\``);
    if (c.check === "meta" && Object.keys(c).length === 1) continue; // JSON Schema metadata, no check at parse time
    if ((c.check === "greater_than" || c.check === "less_than") && Object.keys(c).join() === "check,value,inclusive") {
      if (c.inclusive !== true || typeof c.value !== "number" || !Number.isFinite(c.value)) refuse(where, `has a ${c.check} check other than an inclusive, finite bound`);
      const [op, words, bound] = c.check === "greater_than" ? [">=", "mustBeAtLeast", "Min"] : ["<=", "mustBeAtMost", "Max"];
      checks.push({ fails: (x) => `!(${x} ${op} ${c.value})`, message: `${words}(${c.value})`, words, bound: `${bound}${c.value}`, doc: `${op} ${c.value}` });
      continue;
    }
    if (c.check === "custom" && Object.keys(c).join() === "type,check,fn,error" && c.fn === Number.isInteger) {
      // refine(Number.isInteger, { message }): its message is the check's own, ahead of any error map.
      const message = c.error({ code: "custom", input: 0.5 });
      if (typeof message !== "string" || message !== c.error({ code: "custom", input: -1.5 })) refuse(where, "has an integer refine whose message is not one fixed string");
      checks.push({ fails: (x) => `!Number.isInteger(${x})`, message: JSON.stringify(message), integer: true, doc: "an integer" });
      continue;
    }
    refuse(where, `has a ${c.check} check this compiler does not know`);
  }
  return checks;
}

/**
 * Writes the validators of `roots`; the same roots always give the same text. Each object, array
 * and kind of number is a function of its own, the checks of a string, a boolean or a literal
 * are steps of schema-issues.ts: the file stays small, since a command compiles what it loads.
 */
export function compileKernelSchemas(roots) {
  const functions = [];
  const constants = [];
  const compiled = new Map(); // object schema -> its function's name
  const bodies = new Map(); // an array's or a number's function body -> its name
  const names = new Set();
  const constantNames = new Map(); // the text of a constant -> its name
  const steps = new Set(); // the steps of schema-issues.ts the file uses

  /** A module constant holding a list of strings, `[...]` or `new Set([...])`, one line when it fits (as Biome prints it). */
  const constant = (base, strings, { set = false, type = "" } = {}) => {
    const items = strings.map((item) => JSON.stringify(item));
    const text = set ? `new Set([${items.join(", ")}])` : `[${items.join(", ")}]`;
    if (!constantNames.has(text)) {
      let name = base;
      for (let n = 2; [...constantNames.values()].includes(name); n++) name = `${base}_${n}`;
      constantNames.set(text, name);
      const line = `const ${name}${type} = ${text};`;
      const long = `const ${name}${type} = ${set ? "new Set([" : "["}\n${items.map((item) => `  ${item},\n`).join("")}${set ? "]);" : "];"}`;
      constants.push(line.length <= 200 ? line : long);
    }
    return constantNames.get(text);
  };
  const functionName = (where) =>
    where
      .replace(/\[\]/g, ".item")
      .split(".")
      .map((part, i) => (i === 0 ? part : camel(part)))
      .join("");
  const uniqueName = (base) => {
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base}${n}`;
    names.add(name);
    return name;
  };
  const step = (name) => {
    steps.add(name);
    return name;
  };
  /** A function named after what it checks, written once for every place with the same body. */
  const shared = (base, doc, signature, body) => {
    const key = `${signature}\n${body.join("\n")}`;
    if (!bodies.has(key)) {
      const name = uniqueName(base);
      bodies.set(key, name);
      functions.push([`/** ${doc} */`, `function ${name}${signature} {`, ...body.map((line) => `  ${line}`), "}"].join("\n"));
    }
    return bodies.get(key);
  };
  const LEAF = "(x: unknown, q: Segments, key: JsonPathSegment, issues: FoundIssue[]): unknown";
  const NODE = "(v: unknown, q: Segments, issues: FoundIssue[]): unknown";

  /**
   * The expression that checks `value` (the zod schema `schema`, at `where`), the field `key` of
   * the object or array at path `q`, and is what zod returns for it.
   */
  function check(schema, value, key, where) {
    const def = defOf(schema, where);
    switch (def.type) {
      case "string":
        return `${step("checkString")}(${value}, q, ${key}, issues)`;
      case "boolean":
        return `${step("checkBoolean")}(${value}, q, ${key}, issues)`;
      case "number":
        return `${numberFunction(def, where)}(${value}, q, ${key}, issues)`;
      case "literal":
      case "enum": {
        const values = def.type === "literal" ? def.values : Object.values(def.entries);
        if (def.type === "enum" && Object.entries(def.entries).some(([k, v]) => k !== v)) refuse(where, "is an enum whose keys are not its values");
        if (values.length === 0 || values.some((v) => typeof v !== "string")) refuse(where, `is a ${def.type} of other than strings`);
        const list = constant(`${where.replace(/\[\]/g, "").replace(/\W+/g, "_").toUpperCase()}_VALUES`, values, { type: ": readonly unknown[]" });
        return `${step("checkValue")}(${list}, ${value}, q, ${key}, issues)`;
      }
      case "array":
        return `${arrayFunction(def.element, where)}(${value}, [...q, ${key}], issues)`;
      case "object":
        return `${objectFunction(schema, where)}(${value}, [...q, ${key}], issues)`;
      case "optional":
        refuse(where, "is optional outside an object's shape");
    }
    throw new Error("unreachable");
  }

  function numberFunction(def, where) {
    const checks = numberChecks(def, where);
    const integer = checks.some((c) => c.integer);
    const bounds = checks.filter((c) => c.bound).map((c) => c.bound);
    const push = (message) => `issues.push({ segments: [...q, key], message: ${message} });`;
    step("mustBeType");
    const body = [
      `if (typeof x !== "number" || !Number.isFinite(x)) ${push('mustBeType("number", x)')}`,
      "else {",
      // Each check runs on a number whatever the others found: none of these aborts (zod's runChecks).
      ...checks.map(({ fails, message }) => `  if (${fails("x")}) ${push(message)}`),
      "}",
      "return x;",
    ];
    for (const c of checks) if (c.words) step(c.words);
    const base = `${integer ? "integer" : "number"}${bounds.join("")}`;
    return shared(base, `A number${checks.length ? `: ${checks.map((c) => c.doc).join(", ")}` : ""}.`, LEAF, body);
  }

  /** One function per kind of array: an array of strings is one function wherever it is used. */
  function arrayFunction(element, where) {
    step("notA");
    const body = [
      'if (!Array.isArray(v)) return notA("array", v, q, issues);',
      "const out: unknown[] = new Array(v.length);",
      `for (let i = 0; i < v.length; i++) out[i] = ${check(element, "v[i]", "i", `${where}[]`)};`,
      "return out;",
    ];
    const type = element._zod.def.type;
    const named = ["string", "boolean"].includes(type);
    return shared(named ? `${type}Array` : functionName(where), named ? `An array of ${type}s.` : `${where}: an array.`, NODE, body);
  }

  /** One function per object schema (a schema used twice, like the context selector, once). */
  function objectFunction(schema, where) {
    if (compiled.has(schema)) return compiled.get(schema);
    const def = defOf(schema, where);
    if (def.catchall?._zod?.def?.type !== "never" || Object.keys(def.catchall._zod.def).length !== 1) refuse(where, "is an object that is not strict (z.strictObject)");
    const keys = Object.keys(def.shape);
    if (Object.getOwnPropertySymbols(def.shape).length > 0) refuse(where, "has a symbol key");
    const name = uniqueName(functionName(where));
    compiled.set(schema, name);
    // Its slot comes before the functions of its fields: the file reads from the document down.
    const slot = functions.push("") - 1;
    const keySet = constant(`${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_KEYS`, keys, { set: true });
    step("notA");
    step("unknownKeys");
    const body = ['if (!isJsonObject(v)) return notA("object", v, q, issues);', "const out: Record<string, unknown> = {};"];
    for (const key of keys) {
      if (key === "__proto__") refuse(`${where}.${key}`, "is the key __proto__");
      const field = IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
      const at = `${where}.${key}`;
      const value = def.shape[key];
      // Absent, an optional key is no issue and no key (present as undefined, zod keeps it); a
      // required one is undefined, which every known schema refuses: "is required".
      if (defOf(value, at).type === "optional")
        body.push(`if (${step("has")}(v, ${JSON.stringify(key)}, out)) out${field} = ${check(value._zod.def.innerType, `v${field}`, JSON.stringify(key), at)};`);
      else body.push(`out${field} = ${check(value, `v${field}`, JSON.stringify(key), at)};`);
    }
    body.push(`unknownKeys(v, ${keySet}, q, issues);`, "return out;");
    functions[slot] = [`/** ${where}: a strict object. */`, `function ${name}${NODE} {`, ...body.map((line) => `  ${line}`), "}"].join("\n");
    return name;
  }

  const exported = [];
  for (const root of roots) {
    const top = objectFunction(root.schema, root.base);
    exported.push(
      [
        `/** ${root.type}: ${root.source}, compiled; it returns zod's value when it pushes no issue. */`,
        `export function ${root.name}(value: unknown, issues: FoundIssue[]): ${root.type} {`,
        `  return ${top}(value, [], issues) as ${root.type};`,
        "}",
      ].join("\n"),
    );
  }
  const types = [...new Set(roots.map((root) => root.from))].map((from) => {
    const these = roots.filter((root) => root.from === from).map((root) => root.type);
    return `import type { ${these.join(", ")} } from "${from}";`;
  });
  const runtime = ["type FoundIssue", "type Segments", "isJsonObject", ...[...steps].sort()];
  return [
    "// Generated by scripts/compile-kernel-schemas.js from the zod schemas of shared/kernel; do not edit.",
    "// Regenerate with `npm run kernel:schemas` (test/shared/kernel/compiled-schemas.test.ts fails when stale).",
    "// The zod schemas stay the one definition: these are what zod's parse and issues.ts's words say of",
    "// them, without loading zod or building a schema when a command validates a kernel document.",
    ...types.sort(),
    'import type { JsonPathSegment } from "./json-path.js";',
    `import { ${runtime.join(", ")} } from "./schema-issues.js";`,
    "",
    ...constants,
    "",
    [...exported, ...functions].join("\n\n"),
    "",
  ].join("\n");
}

/** The schemas as the source defines them, bundled with esbuild and loaded from memory. */
async function loadSchemas() {
  const { build } = await import("esbuild");
  const entry = [
    'export { kernelSchemas } from "./shared/kernel/schema.ts";',
    'export { kernelCheckpointSchema } from "./shared/kernel/checkpoint-schema.ts";',
    'export { contextReceiptSchema } from "./shared/kernel/receipt-schema.ts";',
  ].join("\n");
  const { outputFiles } = await build({ stdin: { contents: entry, resolveDir: root, loader: "ts" }, bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "warning" });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = compileKernelSchemas(kernelValidatorRoots(await loadSchemas()));
  const path = `${root}${COMPILED_FILE}`;
  if (process.argv.includes("--check")) {
    if (readFileSync(path, "utf8") !== text) {
      process.stderr.write(`${COMPILED_FILE} is stale: run npm run kernel:schemas\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
    process.stdout.write(`wrote ${COMPILED_FILE}\n`);
  }
}
