/**
 * Errors come from the same core the CLI runs, so their messages and hints name CLI flags
 * ("pass --max-views 1"). An agent calling a tool has arguments, not flags: this rewrites a flag
 * into the argument of the tool that was called, when the tool has one, and leaves other words.
 */

/** CLI flags whose tool argument has another name. */
const RENAMED: Record<string, string> = {
  "body-file": "body",
  "max-views": "max_views",
  keyword: "keywords",
  pin: "pins",
  "allow-insufficient": "allow_insufficient",
};

/** Whole phrases that only make sense on a command line, in the tool's words. */
const PHRASES: [RegExp, string][] = [
  [/write the session's context \(objective, state, next steps\) to a file and pass --body-file F, or pipe it on stdin/, "pass the session's context (objective, state, next steps) as body"],
  [/pass --body-file F, or pipe the body on stdin[^;]*/, "pass the handoff as body"],
  [/pass --allow-insufficient to write it anyway/, "pass allow_insufficient: true to write it anyway"],
  [/run handoff create again/, "call create again"],
];

/** `--flag` and an optional value after it: a placeholder (F, N, URL) or a literal value. */
const FLAG = /--([a-z][a-z-]*)(?: ([A-Z]{1,4}\b|\d+[a-z]*|'[^']*'))?/g;

/**
 * Text in the words of `tool`'s arguments.
 *
 * @example
 * ```ts
 * inToolWords("pass --max-views 1", ["path", "max_views"]) // "pass max_views: 1"
 * inToolWords("pass --scope link or --scope team", ["scope"]) // "pass scope link or scope team"
 * inToolWords("run 'handoff resume <url> --peek'", ["source"]) // unchanged: orient has no peek
 * ```
 */
export function inToolWords(text: string, argumentNames: readonly string[]): string {
  let out = text;
  for (const [phrase, words] of PHRASES) out = out.replace(phrase, words);
  return out.replace(FLAG, (whole, flag: string, value: string | undefined) => {
    const name = RENAMED[flag] ?? flag.replace(/-/g, "_");
    if (!argumentNames.includes(name)) return whole;
    if (value === undefined || /^[A-Z]{1,4}$/.test(value)) return name;
    return `${name}: ${value}`;
  });
}
