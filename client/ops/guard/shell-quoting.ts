/**
 * The lexical pieces of bash quoting the parser decodes: `$'...'` (ANSI-C quoting) and where the
 * `}` closing a `${` is.
 */

/** Where the `}` closing a `${` is (nested braces and quotes skipped), or the end of input. */
export function matchingBrace(s: string, from: number): number {
  let depth = 1;
  for (let j = from; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "'") j = Math.max(j, s.indexOf("'", j + 1));
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return j;
  }
  return s.length;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", e: "\x1b", E: "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/** Bash's `$'...'` from just after the opening quote: the decoded text, and where the word goes on. */
export function ansiC(s: string, from: number): { text: string; end: number } {
  let text = "";
  let j = from;
  for (; j < s.length && s[j] !== "'"; j++) {
    if (s[j] !== "\\") {
      text += s[j];
      continue;
    }
    const c = s[++j];
    if (c === undefined) break;
    if (SIMPLE_ESCAPES[c] !== undefined) text += SIMPLE_ESCAPES[c];
    else if (/[0-7]/.test(c)) {
      const digits = /^[0-7]{1,3}/.exec(s.slice(j))![0];
      text += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      j += digits.length - 1;
    } else if (c === "x" || c === "u" || c === "U") {
      const max = c === "x" ? 2 : c === "u" ? 4 : 8;
      const digits = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(s.slice(j + 1))?.[0];
      if (digits === undefined) text += `\\${c}`;
      else {
        const code = Number.parseInt(digits, 16);
        text += code <= 0x10ffff ? String.fromCodePoint(code) : "";
        j += digits.length;
      }
    } else if (c === "c" && s[j + 1] !== undefined) {
      text += String.fromCharCode(s[++j]!.toUpperCase().charCodeAt(0) ^ 0x40);
    } else text += `\\${c}`;
  }
  return { text, end: j + 1 };
}
