import { expandBraces } from "./braces.js";
import type { Part, Script, Word } from "./shell-ast.js";

/**
 * The fields a parsed word becomes, as the shell would expand it, without running anything:
 * tilde, parameters (the values the command itself assigned, HOME and PWD; any other is computed
 * at run time), command and process substitutions (computed: their commands are handed to
 * `onCommand` so the reader judges them too), word splitting of unquoted values, brace
 * expansion, and which fields are globs the shell would match against the file tree.
 */

/** Stands for text computed at run time (a variable's value, a command's output). */
export const COMPUTED = "\u0000";

export interface Field {
  /** The expanded word; COMPUTED marks what only run time knows. */
  text: string;
  /** When the shell would match it against the file tree: the pattern, with quoted `*?[` bracketed (`[*]`). */
  glob?: string;
}

/** A variable's possible values; undefined: only run time knows. */
export type Values = Field[] | undefined;

export interface ExpandScope {
  vars: ReadonlyMap<string, Values>;
  home: string | undefined;
  /** undefined once a `cd` went somewhere only run time knows. */
  cwd: string | undefined;
  /** A command whose output (or file) this word uses: the reader judges it. */
  onCommand(script: Script): void;
  /** Literal text inside an expansion (`${X:-secrets/x}`) the shell may substitute. */
  onText(text: string): void;
}

/** At most this many fields from one word (brace expressions and multi-valued variables multiply). */
export const MAX_FIELDS = 256;

// Private-use stand-ins, so quoted characters do not act as braces, globs or separators.
const QUOTED: Record<string, string> = { "{": "\uE001", "}": "\uE002", ",": "\uE003", "*": "\uE004", "?": "\uE005", "[": "\uE006" };
const UNQUOTED = Object.fromEntries(Object.entries(QUOTED).map(([char, mark]) => [mark, char]));
const SPLIT = "\uE007";
const BRACKETED: Record<string, string> = { "\uE004": "[*]", "\uE005": "[?]", "\uE006": "[[]" };

/**
 * A word's fields; undefined when it would make more than MAX_FIELDS (the caller blocks).
 *
 * @example
 * ```ts
 * expandWord(parseShell("cat ~/{a,b}").commands[0].words[1], scope) // [{text: "/home/u/a"}, {text: "/home/u/b"}]
 * ```
 */
export function expandWord(word: Word, scope: ExpandScope, options: { glob: boolean } = { glob: true }): Field[] | undefined {
  let skeletons = [""];
  let anyQuoted = false;
  word.forEach((part, index) => {
    if ("quoted" in part && part.quoted) anyQuoted = true;
    const alternatives = partAlternatives(part, index === 0, scope);
    const next: string[] = [];
    for (const head of skeletons) for (const tail of alternatives) next.push(head + tail);
    skeletons = next.slice(0, MAX_FIELDS + 1);
  });
  const fields: Field[] = [];
  for (const skeleton of skeletons) {
    const braced = expandBraces(skeleton);
    if (braced === undefined) return undefined;
    for (const piece of braced) {
      for (const raw of piece.split(SPLIT)) {
        if (raw === "" && (!anyQuoted || piece.includes(SPLIT))) continue;
        fields.push(toField(raw, options.glob));
        if (fields.length > MAX_FIELDS) return undefined;
      }
    }
  }
  return fields;
}

/** A field's text with the stand-ins put back. */
function toField(raw: string, glob: boolean): Field {
  const text = raw.replace(/[\uE001-\uE006]/g, (mark) => UNQUOTED[mark]!);
  if (!glob || raw.includes(COMPUTED) || !/[*?[]/.test(raw)) return { text };
  return { text, glob: raw.replace(/[\uE001-\uE006]/g, (mark) => BRACKETED[mark] ?? UNQUOTED[mark]!) };
}

function quote(text: string): string {
  return text.replace(/[{},*?[]/g, (char) => QUOTED[char]!);
}

/** What one part may contribute to the skeleton (several strings: a variable with several values). */
function partAlternatives(part: Part, first: boolean, scope: ExpandScope): string[] {
  switch (part.kind) {
    case "text": {
      if (part.quoted) return [quote(part.text)];
      if (!first) return [part.text];
      // `NAME=~/x`: bash expands a tilde right after an assignment's `=` too.
      if (!part.text.includes("~")) return [part.text];
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*\+?=)(~.*)$/.exec(part.text);
      return [assignment ? assignment[1]! + tilde(assignment[2]!, scope.home) : tilde(part.text, scope.home)];
    }
    case "param": {
      if (part.inner !== "") scope.onText(part.inner.replace(/^[:]?[-=?+#%/^,@]+/, ""));
      const values = lookup(part.name, scope);
      if (values === undefined) return [COMPUTED];
      return values.map((value) => (value.glob !== undefined ? value.glob : part.quoted ? quote(value.text) : value.text.replace(/[ \t\n]+/g, SPLIT)));
    }
    case "command":
    case "process":
      scope.onCommand(part.script);
      return [part.kind === "process" ? "/dev/fd/63" : COMPUTED];
    case "arith":
      return [COMPUTED];
  }
}

function lookup(name: string, scope: ExpandScope): Values {
  if (scope.vars.has(name)) return scope.vars.get(name);
  if (name === "HOME" && scope.home !== undefined) return [{ text: scope.home }];
  if (name === "PWD" && scope.cwd !== undefined) return [{ text: scope.cwd }];
  return undefined;
}

/** `~` and `~/x` at the start of a word; `~user` is computed. */
function tilde(text: string, home: string | undefined): string {
  if (!text.startsWith("~")) return text;
  const end = text.indexOf("/");
  const user = text.slice(1, end < 0 ? text.length : end);
  if (user === "" && home !== undefined) return home + text.slice(1);
  return COMPUTED + (end < 0 ? "" : text.slice(end));
}

/** Whether a word is an assignment (`NAME=value`), as the shell decides it: from its unquoted start. */
export function assignmentName(word: Word): string | undefined {
  const lead = word[0];
  if (lead?.kind !== "text" || lead.quoted || !lead.text.includes("=")) return undefined;
  return /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(lead.text)?.[1];
}
