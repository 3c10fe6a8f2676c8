import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseStrictJson } from "../../../shared/kernel/strict-json.js";
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
