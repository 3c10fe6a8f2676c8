import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseStrictJson, parseStrictJsonWithNumbers } from "../../../shared/kernel/strict-json.js";
import { EXAMPLE_FILE, fixtureText } from "./fixtures.js";

describe("parseStrictJson", () => {
  it.each([
    ["null", null],
    ["true", true],
    [" false ", false],
    ["0", 0],
    ["-0.5e+2", -50],
    ['"a\\u00e9\\n\\"\\/"', 'aé\n"/'],
    ['"😀"', "😀"],
    ["[]", []],
    ['[1, [2, {"a": []}]]', [1, [2, { a: [] }]]],
    ['{"a": {"b": 1}, "c": "d"}', { a: { b: 1 }, c: "d" }],
    ["\uFEFF{}", {}],
  ])("parses %j like JSON.parse", (text, expected) => {
    const result = parseStrictJson(text);
    expect(result).toEqual({ ok: true, value: expected });
  });

  it("parses the real manifest exactly like JSON.parse", () => {
    const text = fixtureText(EXAMPLE_FILE);
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it("keeps a __proto__ key as data, not as the prototype", () => {
    const result = parseStrictJson('{"__proto__": {"polluted": true}}');
    if (!result.ok) throw new Error(result.error.message);
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["top level", '{"a": 1, "a": 2}', "a", 1, 10],
    ["nested object", '{"x": {"y": {"k": 1, "k": 2}}}', "x.y.k", 1, 22],
    ["inside an array", '{"list": [{"ok": 1}, {"p": 1,\n  "p": 2}]}', "list[1].p", 2, 3],
    ["same key after unescaping", '{"ab": 1, "a\\u0062": 2}', "ab", 1, 11],
    ["non-identifier key", '{"context": {"a b": 1, "a b": 2}}', 'context["a b"]', 1, 24],
    ["manifest depth", '{"context": {"budget": {"max_tokens": 1, "max_tokens": 2}}}', "context.budget.max_tokens", 1, 42],
  ])("rejects a duplicate key (%s) with its path and position", (_name, text, path, line, column) => {
    const result = parseStrictJson(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ path, line, column });
    expect(result.error.message).toMatch(/^duplicate key .*\(first at line \d+, column \d+\)/);
  });

  it("counts columns in code points", () => {
    const result = parseStrictJson('{"😀": 1, "😀": 2}');
    expect(result.ok ? undefined : result.error).toMatchObject({ line: 1, column: 10 });
  });

  it.each([
    ["", /empty input/, 1, 1],
    ["   \n ", /empty input/, 2, 2],
    ['{"a": 1,}', /trailing comma before '}'/, 1, 9],
    ["[1, 2,]", /trailing comma before '\]'/, 1, 7],
    ["{'a': 1}", /expected a double-quoted key/, 1, 2],
    ["'a'", /double quotes/, 1, 1],
    ['{"a" 1}', /expected ':'/, 1, 6],
    ['{"a": 1 "b": 2}', /expected ',' or '}'/, 1, 9],
    ["[1 2]", /expected ',' or '\]'/, 1, 4],
    ['{"a": "x', /unterminated string/, 1, 7],
    ['"a\nb"', /unescaped line break/, 1, 3],
    ['"a\tb"', /unescaped control character U\+0009/, 1, 3],
    ['"\\x"', /invalid escape '\\x'/, 1, 2],
    ['"\\u12g4"', /invalid \\u escape/, 1, 2],
    ["01", /leading zeros/, 1, 1],
    ["1.", /after the JSON value/, 1, 2],
    ["-", /invalid number/, 1, 1],
    ["1e999", /too large/, 1, 1],
    ["tru", /expected a value/, 1, 1],
    ["NaN", /expected a value/, 1, 1],
    ["{} {}", /after the JSON value/, 1, 4],
    ["// c\n{}", /character '\/'/, 1, 1],
    ['{"a":', /unexpected end of input/, 1, 6],
  ])("rejects %j: %s at %i:%i", (text, message, line, column) => {
    const result = parseStrictJson(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toMatch(message);
    expect(result.error).toMatchObject({ line, column });
    expect(result.error.path).toBeUndefined();
  });

  it("bounds nesting depth without overflowing the stack", () => {
    const fits = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    expect(parseStrictJson(fits).ok).toBe(true);
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const result = parseStrictJson(deep);
    expect(result.ok ? undefined : result.error).toMatchObject({ line: 1, column: MAX_JSON_DEPTH + 1 });
    expect(result.ok ? "" : result.error.message).toMatch(/deeper than 128/);
  });

  it("handles large flat objects and long strings", () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => `"k${i}": "${"v".repeat(20)}"`);
    const text = `{${entries.join(",")}, "s": "${"x\\n".repeat(50_000)}"}`;
    const result = parseStrictJson(text);
    expect(result).toEqual({ ok: true, value: JSON.parse(text) });
  });
});

describe("the native fast path (JSON.parse, then a check of keys, nesting and literals)", () => {
  // JSON text as it comes: duplicate keys (also spelled with escapes), literals that matter,
  // numbers too large for a double, `__proto__`, deep nesting, and text that is not JSON at all.
  const numberText = fc.oneof(fc.integer().map(String), fc.constantFrom("2.0", "1e3", "-0", "0", "01", "12345678901234567890", "1e400", "-1.5E-3", "9007199254740993", "1."));
  const keyText = fc.constantFrom("a", "b", "ab", "a\\u0062", "__proto__", "constructor", "1", "0", '\\"q', "");
  const { value: valueText } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof({ depthSize: "small" }, numberText, fc.constantFrom("true", "false", "null", '"s"', '"\\n"', '"\\ud800"', '"a\tb"', "NaN", "-Infinity", "'x'"), tie("array"), tie("object")),
    array: fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(", ")}]`),
    object: fc.array(fc.tuple(keyText, tie("value")), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `"${k}": ${v}`).join(",\n  ")}}`),
  }));
  const texts = fc.oneof(
    valueText,
    fc.json(),
    fc.integer({ min: 126, max: 130 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
    fc.tuple(valueText, fc.nat(), fc.constantFrom("", ",", "}", '"', "\ufeff", " ")).map(([t, at, c]) => t.slice(0, at % (t.length + 1)) + c + t.slice(at % (t.length + 1))),
  );
  // Same answer, including -0, NaN, key order (a "__proto__" key too) and where an error is. Not
  // toStrictEqual: it reads a key named "constructor" as the object's type.
  const canonical = (value: unknown) => JSON.stringify(value, (_key, x) => (typeof x === "number" ? `number ${Object.is(x, -0) ? "-0" : x}` : x));
  const same = (a: unknown, b: unknown) => expect(canonical(a)).toBe(canonical(b));

  it("gives what the hand-written parser gives, with and without literal tracking", () => {
    fc.assert(
      fc.property(texts, (text) => {
        same(parseStrictJsonWithNumbers(text), parseStrictJsonWithNumbers(text, { native: false }));
        same(parseStrictJson(text), parseStrictJson(text, { native: false }));
      }),
      { numRuns: 2000, seed: 26 },
    );
  });

  it("on kernel's real manifest, and a duplicate key in it", () => {
    const real = fixtureText(EXAMPLE_FILE);
    same(parseStrictJsonWithNumbers(real), parseStrictJsonWithNumbers(real, { native: false }));
    const duplicated = real.replace('"dirty": false', '"dirty": false, "dirty": true');
    expect(parseStrictJsonWithNumbers(duplicated).ok).toBe(false);
    same(parseStrictJsonWithNumbers(duplicated), parseStrictJsonWithNumbers(duplicated, { native: false }));
  });
});
