import { type Result, err, ok } from "../errors.js";
import { type JsonPathSegment, formatJsonPath } from "./json-path.js";

/**
 * A JSON parser for manifests, where `JSON.parse` is too forgiving: a duplicate key is an error
 * (last-wins would let a second `"dirty": false` hide the first), nesting is bounded, and every
 * error says where, by line and column (1-based, counted in code points) and, for duplicates,
 * by JSON path. One pass, no backtracking: linear in the input.
 */

export interface StrictJsonError {
  message: string;
  line: number;
  column: number;
  /** The JSON path of the offending key, for duplicate keys. */
  path?: string;
}

/** A number whose literal text matters: written with a fraction or exponent, or beyond 2^53. */
export interface NumberLiteral {
  at: JsonPathSegment[];
  literal: string;
}

/** Deeper than any real manifest by far; keeps the recursive descent off the stack limit. */
export const MAX_JSON_DEPTH = 128;

class ParseFailure {
  constructor(
    readonly message: string,
    readonly offset: number,
    readonly path?: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// A backslash or a raw control character sends a string to the careful, character-by-character path.
const NEEDS_SLOW_PATH = /[\\\u0000-\u001f]/;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Parser {
  private pos = 0;
  private readonly path: JsonPathSegment[] = [];

  constructor(
    private readonly text: string,
    private readonly numbers?: NumberLiteral[],
  ) {
    // RFC 8259 lets a parser ignore a byte order mark; editors on some systems write one.
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  parseDocument(): unknown {
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail("empty input: expected a JSON value");
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.describeHere()} after the JSON value`);
    return value;
  }

  private fail(message: string, offset = this.pos, path?: string): never {
    throw new ParseFailure(message, offset, path);
  }

  private describeHere(): string {
    const char = this.text[this.pos];
    if (char === undefined) return "end of input";
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f ? `control character U+${code.toString(16).padStart(4, "0").toUpperCase()}` : `character '${char}'`;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  private parseValue(depth: number): unknown {
    const char = this.text[this.pos];
    switch (char) {
      case "{":
        return this.parseObject(depth + 1);
      case "[":
        return this.parseArray(depth + 1);
      case '"':
        return this.parseString();
      case "t":
        return this.parseLiteral("true", true);
      case "f":
        return this.parseLiteral("false", false);
      case "n":
        return this.parseLiteral("null", null);
      case "N":
      case "I":
        return this.numbers !== undefined ? this.parsePythonConstant() : this.fail(`unexpected ${this.describeHere()}: expected a value`);
      case undefined:
        return this.fail("unexpected end of input: expected a value");
      default:
        if (char === "-" && this.numbers !== undefined && this.text.startsWith("-Infinity", this.pos)) return this.parsePythonConstant();
        if (char === "-" || (char >= "0" && char <= "9")) return this.parseNumber();
        if (char === "'") return this.fail("strings must use double quotes");
        return this.fail(`unexpected ${this.describeHere()}: expected a value`);
    }
  }

  private enter(depth: number): void {
    if (depth > MAX_JSON_DEPTH) this.fail(`nesting is deeper than ${MAX_JSON_DEPTH} levels`);
    this.pos++;
    this.skipWhitespace();
  }

  private parseObject(depth: number): Record<string, unknown> {
    this.enter(depth);
    const object: Record<string, unknown> = {};
    if (this.text[this.pos] === "}") {
      this.pos++;
      return object;
    }
    // Key offsets in insertion order; only read to name the first occurrence of a duplicate.
    const offsets: number[] = [];
    for (;;) {
      if (this.text[this.pos] !== '"') {
        if (this.text[this.pos] === "}") this.fail("trailing comma before '}' is not allowed in JSON");
        this.fail(`unexpected ${this.describeHere()}: expected a double-quoted key`);
      }
      const keyOffset = this.pos;
      const key = this.parseString();
      if (Object.hasOwn(object, key)) {
        const at = positionAt(this.text, offsets[Object.keys(object).indexOf(key)] ?? keyOffset);
        this.fail(`duplicate key ${JSON.stringify(key)} (first at line ${at.line}, column ${at.column}); JSON keys must be unique`, keyOffset, formatJsonPath([...this.path, key]));
      }
      offsets.push(keyOffset);
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") this.fail(`unexpected ${this.describeHere()}: expected ':' after a key`);
      this.pos++;
      this.skipWhitespace();
      this.path.push(key);
      const value = this.parseValue(depth);
      this.path.pop();
      // A "__proto__" key is data like any other, never the object's prototype.
      if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === "}") {
        this.pos++;
        return object;
      }
      if (next !== ",") this.fail(`unexpected ${this.describeHere()}: expected ',' or '}' in an object`);
      this.pos++;
      this.skipWhitespace();
    }
  }

  private parseArray(depth: number): unknown[] {
    this.enter(depth);
    const array: unknown[] = [];
    if (this.text[this.pos] === "]") {
      this.pos++;
      return array;
    }
    for (;;) {
      if (this.text[this.pos] === "]") this.fail("trailing comma before ']' is not allowed in JSON");
      this.path.push(array.length);
      array.push(this.parseValue(depth));
      this.path.pop();
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === "]") {
        this.pos++;
        return array;
      }
      if (next !== ",") this.fail(`unexpected ${this.describeHere()}: expected ',' or ']' in an array`);
      this.pos++;
      this.skipWhitespace();
    }
  }

  private parseString(): string {
    const text = this.text;
    const start = this.pos;
    // Most strings have no escapes: find the closing quote natively and check the span once.
    const close = text.indexOf('"', start + 1);
    if (close !== -1) {
      const span = text.slice(start + 1, close);
      if (!NEEDS_SLOW_PATH.test(span)) {
        this.pos = close + 1;
        return span;
      }
    }
    let pos = start + 1;
    let chunkStart = pos;
    let out = "";
    for (;;) {
      const code = text.charCodeAt(pos);
      if (Number.isNaN(code)) this.fail("unterminated string", start);
      if (code === 0x22) {
        this.pos = pos + 1;
        return out + text.slice(chunkStart, pos);
      }
      if (code === 0x5c) {
        out += text.slice(chunkStart, pos);
        const escaped = text[pos + 1];
        if (escaped === "u") {
          const hex = text.slice(pos + 2, pos + 6);
          if (!HEX4.test(hex)) this.fail("invalid \\u escape: expected four hex digits", pos);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          pos += 6;
        } else {
          const replacement = escaped === undefined ? undefined : SIMPLE_ESCAPES[escaped];
          if (replacement === undefined) this.fail(`invalid escape '\\${escaped ?? ""}' in string`, pos);
          out += replacement;
          pos += 2;
        }
        chunkStart = pos;
        continue;
      }
      if (code < 0x20) {
        this.pos = pos;
        this.fail(code === 0x0a ? "unescaped line break in string (write \\n)" : `unescaped ${this.describeHere()} in string`, pos);
      }
      pos++;
    }
  }

  // Python's json (kernel's reference) reads NaN and ±Infinity as numbers; with literal tracking
  // on, so does this parser, and the literal tells validators it is no integer.
  private parsePythonConstant(): number {
    for (const [word, value] of [
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
      ["-Infinity", Number.NEGATIVE_INFINITY],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.numbers?.push({ at: [...this.path], literal: word });
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(`unexpected ${this.describeHere()}: expected a value`);
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail("invalid number");
    const literal = match[0];
    const after = this.text[this.pos + literal.length];
    if ((literal === "0" || literal === "-0") && after !== undefined && after >= "0" && after <= "9") {
      this.fail("numbers cannot have leading zeros");
    }
    const value = Number(literal);
    if (!Number.isFinite(value) && this.numbers === undefined) this.fail("number is too large to represent");
    // Integer-ness is lexical in JSON Schema's reading (and in kernel's reference): 2.0 and 1e3
    // are not integers there, and an integer beyond 2^53 is exact there but not here.
    if (this.numbers !== undefined && (/[.eE]/.test(literal) || !Number.isSafeInteger(value))) {
      this.numbers.push({ at: [...this.path], literal });
    }
    this.pos += literal.length;
    return value;
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) return this.fail(`unexpected ${this.describeHere()}: expected a value`);
    this.pos += word.length;
    return value;
  }
}

// A JSON string (whole, escapes included), optionally followed by the colon that makes it a key,
// or a number; in text JSON.parse accepted, every string starts where a match can start.
const TOKEN = /"(?:[^"\\]|\\.)*"(\s*:)?|-?[0-9][0-9.eE+-]*/g;

/**
 * The common case without the hand-written parser: text JSON.parse accepts (strict JSON but for
 * its last-wins duplicates) with no duplicate key, no nesting past the bound and, when literals
 * are tracked, no number whose literal matters gives the same value the parser would, natively.
 * Anything else returns undefined, and the parser reads the text, errors and all.
 */
function parsedNatively(text: string, numbers: boolean): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  let keys = 0;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    if (token.charCodeAt(0) === 0x22) {
      if (match[1] !== undefined) keys++;
      continue;
    }
    // Too large for a double (the parser's error), or a literal the parser records.
    const number = Number(token);
    if (!Number.isFinite(number) || (numbers && (/[.eE]/.test(token) || !Number.isSafeInteger(number)))) return undefined;
  }
  // A duplicate key leaves fewer keys in the value than in the text.
  return countKeys(value, 0) === keys ? { value } : undefined;
}

/** The keys of every object in `value`, or -1 past the nesting bound. */
function countKeys(value: unknown, depth: number): number {
  if (value === null || typeof value !== "object") return 0;
  if (depth >= MAX_JSON_DEPTH) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = countKeys(item, depth + 1);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  for (const key of Object.keys(value)) {
    const inner = countKeys((value as Record<string, unknown>)[key], depth + 1);
    if (inner < 0) return -1;
    count += inner + 1;
  }
  return count;
}

interface ParseOptions {
  /** false: the hand-written parser only, never JSON.parse (the tests hold the two to one answer). */
  native?: boolean;
}

/** Line and column (both 1-based, column in code points) of a UTF-16 offset. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) {
      line++;
      column = 1;
    } else if (code < 0xdc00 || code > 0xdfff) {
      // The low half of a surrogate pair belongs to the code point already counted.
      column++;
    }
  }
  return { line, column };
}

/**
 * Parses JSON text strictly: duplicate keys, trailing commas, comments, single quotes, leading
 * zeros, unescaped control characters and nesting deeper than {@link MAX_JSON_DEPTH} are errors.
 *
 * @example
 * ```ts
 * parseStrictJson('{"a": 1}') // { ok: true, value: { a: 1 } }
 * parseStrictJson('{"a": {"b": 1, "b": 2}}')
 * // { ok: false, error: { message: 'duplicate key "b" (first at line 1, column 8); ...',
 * //   line: 1, column: 16, path: "a.b" } }
 * ```
 */
export function parseStrictJson(text: string, options: ParseOptions = {}): Result<unknown, StrictJsonError> {
  const native = options.native === false ? undefined : parsedNatively(text, false);
  if (native !== undefined) return ok(native.value);
  try {
    return ok(new Parser(text).parseDocument());
  } catch (failure) {
    if (!(failure instanceof ParseFailure)) throw failure;
    const error: StrictJsonError = { message: failure.message, ...positionAt(text, failure.offset) };
    if (failure.path !== undefined) error.path = failure.path;
    return err(error);
  }
}

/**
 * {@link parseStrictJson}, also returning the literal text of every number written with a
 * fraction or an exponent, or beyond 2^53, by JSON path: what a validator needs to tell `2` from
 * `2.0` and to compare integers exactly.
 *
 * @example
 * ```ts
 * parseStrictJsonWithNumbers('{"a": 2.0}') // { ok: true, value: { a: 2 }, numbers: [{ at: ["a"], literal: "2.0" }] }
 * ```
 */
export function parseStrictJsonWithNumbers(text: string, options: ParseOptions = {}): Result<unknown, StrictJsonError> & { numbers: NumberLiteral[] } {
  const numbers: NumberLiteral[] = [];
  const native = options.native === false ? undefined : parsedNatively(text, true);
  if (native !== undefined) return { ...ok(native.value), numbers };
  try {
    return { ...ok(new Parser(text, numbers).parseDocument()), numbers };
  } catch (failure) {
    if (!(failure instanceof ParseFailure)) throw failure;
    const error: StrictJsonError = { message: failure.message, ...positionAt(text, failure.offset) };
    if (failure.path !== undefined) error.path = failure.path;
    return { ...err(error), numbers };
  }
}
