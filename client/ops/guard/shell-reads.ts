import { statSync } from "node:fs";
import { basename, isAbsolute, join, normalize } from "node:path";
import { CODE_OPTIONS, CODE_TOKENS, COPIERS, embeddedPaths, isInterpreter, isRecursive, NON_READING, SHELLS, skipOptions, WRAPPERS } from "./programs.js";
import { assignmentName, COMPUTED, type ExpandScope, expandWord, type Field, type Values } from "./shell-expand.js";
import type { Command, Redirect, Script, SimpleCommand, Word } from "./shell-ast.js";
import { parseShell, ShellParseLimit } from "./shell-parse.js";

/**
 * The one shell reader: every path a Bash command would read, as the guard must judge it. It
 * walks the parsed command (shell-parse.ts) the way the shell would run it: `cd` moves the
 * folder relative words resolve against, assignments and `for` loops give variables values,
 * wrappers (`sudo`, `env`, `timeout`, `xargs`, ...) hand over to the command they run, shells and
 * `eval` run their strings as commands, interpreters' code is scanned for the paths it names,
 * recursive programs read whole trees, and `@path` arguments and `file://` URLs name files.
 * Nothing is run and the file tree is not read here: globs, git and the policy are judged later,
 * only under an active manifest (decide.ts).
 */

export type Read =
  /** A path the command names (absolute, as written after expansion). */
  | { kind: "path"; path: string; via: string }
  /** Everything under a folder (a recursive search, an archive, a copy), or the file itself when it is none. */
  | { kind: "tree"; path: string; via: string; copy?: boolean }
  /** A glob the shell matches against the tree (absolute; quoted glob characters bracketed). */
  | { kind: "glob"; pattern: string; recursive: boolean; via: string }
  /** A word only run time knows: `prefix` is its absolute literal start ("" when not even the folder is known). */
  | { kind: "computed"; prefix: string; word: string; via: string }
  /** A git command: its words after `git`, where it runs, and the variables set for it. */
  | { kind: "git"; args: Field[]; cwd: string | undefined; env: Record<string, string>; via: string }
  /** Something the guard will not follow while a manifest is sealed; `reason` says what. */
  | { kind: "refuse"; reason: string };

export interface ReaderOptions {
  cwd: string;
  home: string | undefined;
}

/**
 * The reads of one Bash command line.
 *
 * @example
 * ```ts
 * readsOfCommand("cd src && cat < ../.env", { cwd: "/r", home: undefined }) // [{kind: "path", path: "/r/src"...}, {kind: "path", path: "/r/.env", ...}]
 * ```
 */
export function readsOfCommand(command: string, options: ReaderOptions): Read[] {
  const reader = new ShellReader(options.home);
  reader.line(command, { cwd: normalize(options.cwd), vars: new Map(), stack: [] }, 0);
  return reader.reads;
}

interface State {
  cwd: string | undefined;
  vars: Map<string, Values>;
  stack: (string | undefined)[];
}

/** What a command's standard input is: a pipe, literal text (here-string, here-document), or nothing known. */
interface Stdin {
  piped: boolean;
  text?: string;
}

class ShellReader {
  readonly reads: Read[] = [];

  constructor(private readonly home: string | undefined) {}

  line(command: string, state: State, depth: number): void {
    if (depth > 8) {
      this.reads.push({ kind: "refuse", reason: "the command runs shells inside shells more than 8 deep; the guard cannot follow it" });
      return;
    }
    try {
      this.script(parseShell(command), state, depth);
    } catch (cause) {
      if (!(cause instanceof ShellParseLimit)) throw cause;
      this.reads.push({ kind: "refuse", reason: cause.message });
    }
  }

  private script(script: Script, state: State, depth: number): void {
    for (const command of script.commands) this.command(command, state, depth);
  }

  private command(command: Command, state: State, depth: number): void {
    if (command.kind === "group") {
      this.script(command.body, command.subshell ? clone(state) : state, depth);
      this.redirects(command.redirects, state, depth);
    } else if (command.kind === "for") {
      const values: Field[] = [];
      let known = command.items !== undefined;
      for (const item of command.items ?? []) {
        const fields = this.expand(item, state, depth);
        if (fields === undefined || fields.some((field) => field.text.includes(COMPUTED))) known = false;
        else values.push(...fields);
      }
      state.vars.set(command.name, known ? values : undefined);
    } else if (command.kind === "expand") {
      for (const word of command.words) for (const field of this.expand(word, state, depth, false) ?? []) this.named(field, state, "a test names");
    } else this.simple(command, state, depth);
  }

  private simple(command: SimpleCommand, state: State, depth: number): void {
    const stdin = this.redirects(command.redirects, state, depth) ?? { piped: command.piped };
    if (command.piped) stdin.piped = true;
    const env: Record<string, string> = {};
    let at = 0;
    for (; at < command.words.length; at++) {
      const word = command.words[at]!;
      const name = assignmentName(word);
      if (name === undefined) break;
      const fields = this.expand(word, state, depth, false) ?? [{ text: COMPUTED }];
      const value = fields.map((field) => field.text.slice(field.text.indexOf("=") + 1)).join(" ");
      this.named({ text: value }, state, `the assignment to ${name} names`);
      env[name] = value;
    }
    // Assignments alone set shell variables; before a command they are only that command's environment.
    if (at === command.words.length) for (const [name, value] of Object.entries(env)) state.vars.set(name, value.includes(COMPUTED) ? undefined : [{ text: value }]);
    const fields: Field[] = [];
    for (const word of command.words.slice(at)) {
      const expanded = this.expand(word, state, depth);
      if (expanded === undefined) return;
      fields.push(...expanded);
    }
    this.run(fields, state, stdin, env, depth);
  }

  /** One command, after expansion: its program decides what its words mean. */
  private run(fields: Field[], state: State, stdin: Stdin, env: Record<string, string>, depth: number): void {
    if (fields.length === 0) return;
    const program = fields[0]!.text;
    const args = fields.slice(1);
    if (program.includes(COMPUTED)) {
      this.computed(fields[0]!, state, "the command runs");
      for (const arg of args) this.argument(arg, state, "a computed command is given", true);
      return;
    }
    const name = basename(program);
    if (program.includes("/")) this.named(fields[0]!, state, "the command runs");
    const wrapper = WRAPPERS[name];
    if (wrapper) this.run(skipOptions(args, wrapper.valued, wrapper.leading ?? 0), state, stdin, env, depth);
    else if (name === "cd" || name === "pushd" || name === "popd") this.changeDirectory(name, args, state);
    else if (name === "env") this.env(args, state, stdin, env, depth);
    else if (name === "xargs" || name === "parallel") this.xargs(name, args, state, stdin, env, depth);
    else if (name === "eval") this.code("eval", args, state, depth);
    else if (name === "watch") this.code("watch", skipOptions(args, ["-n", "-d", "--interval", "--differences"], 0), state, depth);
    else if (name === "git") this.reads.push({ kind: "git", args, cwd: state.cwd, env, via: "git" });
    else if (SHELLS.has(name)) this.shell(name, args, state, stdin, depth);
    else if (isInterpreter(name)) this.interpreter(name, args, state, stdin);
    else this.program(name, args, state);
  }

  /** Any other program: every word it is given may name a path it reads; text fed on its stdin is data (a commit message, a file's new contents). */
  private program(name: string, args: Field[], state: State): void {
    if (DECLARES.has(name)) this.declare(args, state);
    const recursive = isRecursive(name, args);
    let operands = 0;
    const copier = COPIERS.has(name);
    for (const arg of args) if (this.argument(arg, state, `'${name}' is given`, !NON_READING.has(name), recursive, copier)) operands++;
    if (recursive && operands === 0) this.tree(".", state, `'${name}' reads everything under the working folder`);
  }

  /** `export NAME=value`, `local`, `declare`, `readonly`, `read NAME`: the variables they set. */
  private declare(args: Field[], state: State): void {
    for (const arg of args) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(arg.text);
      if (m === null || m[2] === undefined) {
        if (m !== null && !state.vars.has(m[1]!)) state.vars.set(m[1]!, undefined);
        continue;
      }
      state.vars.set(m[1]!, m[2].includes(COMPUTED) ? undefined : [{ text: m[2] }]);
    }
  }

  /**
   * An argument: the paths it names (itself, an option's value, `@file`, `file://`), a glob, or a
   * word computed at run time (judged only for a program that may read it). For a recursive
   * program an existing operand is a tree read. True when it is an operand (not an option).
   */
  private argument(field: Field, state: State, via: string, reads: boolean, recursive = false, copier = false): boolean {
    if (field.text.includes(COMPUTED)) {
      if (reads || recursive) this.computed(field, state, via);
      return !field.text.startsWith("-");
    }
    if (field.glob !== undefined && !field.text.startsWith("-")) {
      this.reads.push({ kind: "glob", pattern: this.absolute(field.glob, state) ?? field.glob, recursive, via: `${via} the glob '${field.text}'` });
      return true;
    }
    for (const path of embeddedPaths(field.text)) this.named({ text: path }, state, path === field.text ? via : `${via} '${field.text}', naming`);
    if (field.text.startsWith("-") || !recursive) return false;
    const path = this.absolute(field.text, state);
    if (path !== undefined && !exists(path)) return false;
    this.tree(field.text, state, `${via} '${field.text}' and reads everything under it`, copier);
    return true;
  }

  private changeDirectory(name: string, args: Field[], state: State): void {
    const target = args.find((arg) => !arg.text.startsWith("-") || arg.text === "-");
    if (name === "popd") {
      state.cwd = state.stack.pop();
      return;
    }
    if (name === "pushd") state.stack.push(state.cwd);
    if (target === undefined) state.cwd = this.home;
    else if (target.text === "-" || target.text.includes(COMPUTED)) state.cwd = undefined;
    else {
      this.named(target, state, `'${name}' moves to`);
      state.cwd = this.absolute(target.text, state);
    }
  }

  /** `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=value]... COMMAND`. */
  private env(args: Field[], state: State, stdin: Stdin, env: Record<string, string>, depth: number): void {
    const inner = clone(state);
    const assigned = { ...env };
    let i = 0;
    for (; i < args.length; i++) {
      const text = args[i]!.text;
      if (text === "-C" || text === "--chdir" || text.startsWith("--chdir=")) {
        const dir = text.startsWith("--chdir=") ? text.slice(8) : (args[++i]?.text ?? "");
        inner.cwd = dir.includes(COMPUTED) ? undefined : this.absolute(dir, inner);
      } else if (text === "-S" || text === "--split-string" || text.startsWith("--split-string=")) {
        const rest = text.includes("=") ? text.slice(text.indexOf("=") + 1) : (args[++i]?.text ?? "");
        this.code("env -S", [{ text: rest }, ...args.slice(i + 1)], inner, depth);
        return;
      } else if (text === "-u" || text === "--unset") i++;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) assigned[text.slice(0, text.indexOf("="))] = text.slice(text.indexOf("=") + 1);
      else if (!text.startsWith("-")) break;
    }
    this.run(args.slice(i), inner, stdin, assigned, depth);
  }

  /** `xargs CMD` runs CMD with words from its input: literal here-text adds those words; a pipe adds computed ones. */
  private xargs(name: string, args: Field[], state: State, stdin: Stdin, env: Record<string, string>, depth: number): void {
    const valued =
      name === "xargs"
        ? ["-a", "-d", "-E", "-I", "-L", "-l", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"]
        : ["-j", "-S", "--jobs", "--sshlogin", "-a", "--arg-file", "--delimiter", "-d", "-I"];
    let inputFile = false;
    for (let i = 0; i < args.length && args[i]!.text.startsWith("-"); i++) {
      const text = args[i]!.text;
      if (text === "-a" || text === "--arg-file" || text.startsWith("--arg-file=")) {
        inputFile = true;
        this.named(text.includes("=") ? { text: text.slice(text.indexOf("=") + 1) } : (args[i + 1] ?? { text: "" }), state, `'${name}' reads its input from`);
      }
    }
    const rest = skipOptions(args, valued, 0);
    const separator = rest.findIndex((arg) => arg.text === ":::" || arg.text === "::::");
    const command = separator >= 0 ? rest.slice(0, separator) : rest;
    const input: Field[] =
      separator >= 0
        ? rest.slice(separator + 1)
        : stdin.text !== undefined && !inputFile
          ? stdin.text
              .split(/[\s\0]+/)
              .filter(Boolean)
              .map((text) => ({ text }))
          : [{ text: COMPUTED }];
    this.run([...(command.length > 0 ? command : [{ text: "echo" }]), ...input], state, { piped: false }, env, depth);
  }

  /** `eval WORDS`, `watch COMMAND`, `env -S STRING`: the words joined are a command line. */
  private code(name: string, args: Field[], state: State, depth: number): void {
    const text = args.map((arg) => arg.text).join(" ");
    if (text.includes(COMPUTED)) this.reads.push({ kind: "refuse", reason: `'${name}' runs a command line computed at run time; the guard cannot see what it reads` });
    else this.line(text, clone(state), depth + 1);
  }

  /** `sh -c STRING`, `bash script.sh`, `bash <<EOF`, `... | sh`. */
  private shell(name: string, args: Field[], state: State, stdin: Stdin, depth: number): void {
    const c = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.text) || arg.text === "--command");
    if (c >= 0) {
      const string = args.slice(c + 1).find((arg) => !arg.text.startsWith("-") || arg.text.includes(" "));
      if (string === undefined) return;
      if (string.text.includes(COMPUTED)) this.reads.push({ kind: "refuse", reason: `'${name} -c' runs a command line computed at run time; the guard cannot see what it reads` });
      else this.line(string.text, clone(state), depth + 1);
      return;
    }
    const script = args.find((arg) => !arg.text.startsWith("-") && !arg.text.startsWith("+"));
    if (script !== undefined) {
      // A script file runs by its own logic (docs/agents.md): the guard judges the file it names, not what it reads.
      for (const arg of args) this.argument(arg, state, `'${name}' is given`, true);
      return;
    }
    if (stdin.text !== undefined) this.line(stdin.text, clone(state), depth + 1);
    else if (stdin.piped) this.reads.push({ kind: "refuse", reason: `'${name}' runs commands it reads from a pipe, computed at run time; the guard cannot see what they read` });
  }

  /** Interpreters: their code (arguments, here-text) is scanned for the paths it names. */
  private interpreter(name: string, args: Field[], state: State, stdin: Stdin): void {
    let code = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (CODE_OPTIONS.has(arg.text) || arg.text === "-") code = true;
      if (arg.text.includes(COMPUTED)) {
        for (const token of arg.text.match(CODE_TOKENS) ?? []) {
          if (token.includes(COMPUTED)) this.computed({ text: token }, state, `${name} code holds`);
          else this.named({ text: token }, state, `${name} code names`);
        }
        continue;
      }
      if (arg.glob !== undefined) this.argument(arg, state, `'${name}' is given`, true);
      for (const token of arg.text.match(CODE_TOKENS) ?? []) this.named({ text: token }, state, `${name} code names`);
    }
    const script = args.some((arg) => !arg.text.startsWith("-"));
    if (stdin.text !== undefined) this.tokens(stdin.text, state, `${name} code names`);
    else if (stdin.piped && !script && !code && !/^(?:awk|gawk|mawk|nawk|jq|yq|sed|bc|dc|sqlite3|psql|mysql)$/.test(name)) {
      this.reads.push({ kind: "refuse", reason: `'${name}' runs code it reads from a pipe, computed at run time; the guard cannot see what it reads` });
    }
  }

  /** Redirections: the files they name, and the command's stdin when it is literal text. */
  private redirects(redirects: Redirect[], state: State, depth: number): Stdin | undefined {
    let stdin: Stdin | undefined;
    for (const redirect of redirects) {
      if (redirect.heredoc) {
        const expanded = redirect.heredoc.expanded ? this.expand(redirect.heredoc.expanded, state, depth, false) : undefined;
        stdin = { piped: false, text: expanded ? expanded.map((field) => field.text).join("") : redirect.heredoc.body };
        continue;
      }
      const fields = this.expand(redirect.target ?? [], state, depth, redirect.op !== "<<<") ?? [{ text: COMPUTED }];
      if (redirect.op === "<<<") {
        stdin = { piped: false, text: fields.map((field) => field.text).join(" ") };
        continue;
      }
      const reading = redirect.op.startsWith("<");
      for (const field of fields) {
        if (/^(?:\d+|-)$/.test(field.text) && redirect.op.endsWith("&")) continue;
        this.argument(field, state, `a redirection (${redirect.op}) names`, reading);
      }
      if (redirect.op === "<" || redirect.op === "<>") stdin = { piped: false };
    }
    return stdin;
  }

  private expand(word: Word, state: State, depth: number, glob = true): Field[] | undefined {
    const scope: ExpandScope = {
      vars: state.vars,
      home: this.home,
      cwd: state.cwd,
      onCommand: (script) => this.script(script, clone(state), depth + 1),
      onText: (text) => this.tokens(text, state, "an expansion's default names"),
    };
    const fields = expandWord(word, scope, { glob });
    if (fields === undefined) this.reads.push({ kind: "refuse", reason: "a word expands (braces, variables) to more fields than the guard follows" });
    return fields;
  }

  private tokens(text: string, state: State, via: string): void {
    for (const token of text.match(CODE_TOKENS) ?? []) {
      if (token.includes(COMPUTED)) this.computed({ text: token }, state, via);
      else this.named({ text: token }, state, via);
    }
  }

  /** A literal word the command names (as itself and, for `@file` and `file://`, the path inside). */
  private named(field: Field, state: State, via: string): void {
    const text = field.text;
    if (text === "" || text.includes(COMPUTED)) return;
    const path = this.absolute(text, state);
    if (path === undefined) this.reads.push({ kind: "computed", prefix: "", word: text, via: `${via} '${text}' in a folder only run time knows` });
    else this.reads.push({ kind: "path", path, via: `${via} '${text}'` });
  }

  private tree(text: string, state: State, via: string, copy = false): void {
    const path = this.absolute(text, state);
    if (path === undefined) this.reads.push({ kind: "computed", prefix: "", word: text, via });
    else this.reads.push({ kind: "tree", path, via, ...(copy ? { copy } : {}) });
  }

  private computed(field: Field, state: State, via: string): void {
    const literal = field.text.slice(0, field.text.indexOf(COMPUTED));
    const prefix = literal === "" ? (state.cwd === undefined ? "" : `${state.cwd}/`) : (this.absolute(literal, state) ?? "");
    const shown = field.text.replaceAll(COMPUTED, "$…");
    this.reads.push({
      kind: "computed",
      prefix: literal.endsWith("/") && prefix !== "" && !prefix.endsWith("/") ? `${prefix}/` : prefix,
      word: shown,
      via: `${via} '${shown}', computed at run time,`,
    });
  }

  /** An absolute path for a word, or undefined when it is relative to a folder only run time knows. */
  private absolute(text: string, state: State): string | undefined {
    if (isAbsolute(text)) return normalize(text);
    if (state.cwd === undefined) return undefined;
    return normalize(join(state.cwd, text));
  }
}

/** Builtins whose `NAME=value` operands set variables. */
const DECLARES = new Set(["export", "local", "declare", "typeset", "readonly", "read", "mapfile", "readarray"]);

/** Whether a path exists (anything stat can see; a dangling name is no tree to read). */
function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

function clone(state: State): State {
  return { cwd: state.cwd, vars: new Map(state.vars), stack: [...state.stack] };
}
