/**
 * The one gate between text we did not write (a handoff, a manifest, git, a server's answer) and
 * a terminal. Terminals act on control characters: ESC starts CSI/OSC sequences that can retitle
 * the window, clear the screen or write to the clipboard, C1 characters (U+009B CSI, U+009D OSC)
 * do the same on some terminals, and a bare CR lets a later line overwrite an earlier one.
 * Bidirectional controls make shown text read differently from what it is ("Trojan Source"), and
 * U+2028/U+2029 break lines where a reader (or an agent) sees none. Every one of these is shown
 * escaped as `\uXXXX`, never dropped, so what was there stays visible.
 *
 * Pure functions, no I/O: the CLI's terminal layer calls them on everything it prints.
 */

/**
 * C0 controls but tab and newline, DEL, C1, the Arabic letter mark (U+061C), LRM/RLM
 * (U+200E/U+200F), the embeddings and overrides (U+202A-U+202E), the isolates (U+2066-U+2069),
 * and the line and paragraph separators (U+2028/U+2029).
 */
const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same set plus tab and newline: for text that must stay on one line. */
const UNSAFE_ON_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escapeChar = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text safe to print: every terminal control, bidi control and Unicode line separator shown as
 * `\uXXXX`. Newlines and tabs are kept (multi-line text stays multi-line); use
 * {@link safeLineForTerminal} where one line is expected.
 *
 * @example
 * ```ts
 * safeForTerminal("rate limited\u001b]0;pwned\u0007") // "rate limited\\u001b]0;pwned\\u0007"
 * safeForTerminal("a\nb\u202ec") // "a\nb\\u202ec"
 * ```
 */
export function safeForTerminal(text: string): string {
  return text.replace(UNSAFE_KEEPING_LINES, escapeChar);
}

/**
 * {@link safeForTerminal} for a single line (a title, a phase name, a server message): newlines and
 * tabs are escaped too, so the text cannot start a line that looks like ours.
 *
 * @example
 * ```ts
 * safeLineForTerminal("title\nRevoked everything") // "title\\u000aRevoked everything"
 * ```
 */
export function safeLineForTerminal(text: string): string {
  return text.replace(UNSAFE_ON_ONE_LINE, escapeChar);
}

/** The characters JSON.stringify leaves raw but a terminal acts on: DEL, C1, bidi controls, U+2028/9. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text safe to print: the characters above, which JSON.stringify leaves raw, written as
 * `\uXXXX` escapes. They can only occur inside JSON strings, where the escape means the same
 * character, so the result parses to exactly the same value. (JSON.stringify already escapes C0.)
 *
 * @example
 * ```ts
 * escapeJsonForTerminal(JSON.stringify({ title: "a\u009b2Jb" })) // '{"title":"a\\u009b2Jb"}'
 * JSON.parse(escapeJsonForTerminal(json)) // deep-equals JSON.parse(json)
 * ```
 */
export function escapeJsonForTerminal(jsonText: string): string {
  return jsonText.replace(JSON_UNSAFE, escapeChar);
}

/**
 * `JSON.stringify(value, null, 2)` made terminal-safe: what every `--json` output prints.
 *
 * @example
 * ```ts
 * stringifyForTerminal({ name: "x\u202ey" }) // '{\n  "name": "x\\u202ey"\n}'
 * ```
 */
export function stringifyForTerminal(value: unknown): string {
  return escapeJsonForTerminal(JSON.stringify(value, null, 2));
}
