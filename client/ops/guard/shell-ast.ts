/**
 * The shapes shell-parse.ts gives a command line: words made of parts (literal text, expansions,
 * substitutions), redirections, and the commands and lists around them.
 */

export type Part =
  | { kind: "text"; text: string; quoted: boolean }
  /** `$NAME`, `${NAME...}`: `inner` is what follows the name inside braces (`:-default`). */
  | { kind: "param"; name: string; quoted: boolean; inner: string }
  /** `$(...)` or back quotes: its output, computed at run time. */
  | { kind: "command"; script: Script; quoted: boolean }
  /** `<(...)`, `>(...)`: a file the shell names, fed by (or feeding) a command. */
  | { kind: "process"; script: Script }
  | { kind: "arith"; quoted: boolean };

export type Word = Part[];

export interface Redirect {
  /** `<`, `>`, `>>`, `<>`, `<&`, `>&`, `&>`, `&>>`, `>|`, `<<<`, `<<`. */
  op: string;
  target?: Word;
  /** A here-document: its body, and whether the shell expands it (an unquoted delimiter). */
  heredoc?: { body: string; expanded?: Word };
}

export interface SimpleCommand {
  kind: "simple";
  words: Word[];
  redirects: Redirect[];
  /** Its standard input is the previous command's output (`a | b`). */
  piped: boolean;
}

export interface GroupCommand {
  kind: "group";
  body: Script;
  redirects: Redirect[];
  piped: boolean;
  /** `( ... )`: a `cd` inside does not outlive it. */
  subshell: boolean;
}

/** `for NAME in WORDS`: NAME takes each word in turn (`items` undefined: the positional parameters). */
export interface ForCommand {
  kind: "for";
  name: string;
  items: Word[] | undefined;
}

/** Words the shell expands without running them as a command (`case` subjects, `[[ ... ]]`). */
export interface ExpandCommand {
  kind: "expand";
  words: Word[];
}

export type Command = SimpleCommand | GroupCommand | ForCommand | ExpandCommand;

export interface Script {
  commands: Command[];
}
