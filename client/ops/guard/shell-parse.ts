import type { Command, ExpandCommand, ForCommand, GroupCommand, Part, Redirect, Script, SimpleCommand, Word } from "./shell-ast.js";
import { ansiC, matchingBrace } from "./shell-quoting.js";

/**
 * A parser for the shell a Bash tool call runs (bash, POSIX sh), deep enough to see every word
 * the shell would turn into a path: quoting (`'...'`, `"..."`, `$'...'`, backslashes), parameter
 * expansions, command substitutions (`$(...)`, back quotes, recursively), process substitutions,
 * arithmetic, redirections with their file descriptors, here-strings and here-documents, pipes,
 * lists, subshells, groups, and the compound commands (`if`, `while`, `for`, `case`, `[[ ]]`,
 * functions). It does not run or expand anything: shell-expand.ts turns its words into fields.
 * Whatever it cannot follow (nesting deeper than MAX_DEPTH) throws, and the guard then blocks.
 */

/** Deeper nesting of substitutions, subshells and quotes than this is refused (the guard blocks). */
export const MAX_DEPTH = 32;

/** Thrown for input the parser will not follow; the message says why. */
export class ShellParseLimit extends Error {}

/** Words that open, continue or close a compound command: the next word starts a command. */
const KEYWORDS = new Set(["if", "then", "elif", "else", "fi", "do", "done", "while", "until", "!", "time", "coproc", "}"]);
const REDIRECT_OPS = ["<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">", "&>>", "&>"];
/** Characters that end an unquoted word. */
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/**
 * The commands of a shell command line, with their words and redirections.
 *
 * @example
 * ```ts
 * parseShell("cat < .env | grep x").commands.length // 2
 * ```
 */
export function parseShell(source: string): Script {
  return new Parser(source, 0).script("");
}

/** The parts of a here-document body the shell expands (its delimiter was not quoted). */
export function parseExpandedText(text: string, depth = 0): Word {
  const parser = new Parser(text, depth);
  return parser.doubleQuoted(false);
}

class Parser {
  private i = 0;
  private pending: { delimiter: string; stripTabs: boolean; quoted: boolean; redirect: Redirect }[] = [];

  constructor(
    private readonly s: string,
    private readonly depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new ShellParseLimit(`the command nests substitutions, subshells or shells more than ${MAX_DEPTH} deep`);
  }

  /** A list of commands up to `end` (`)` of a subshell or substitution, `}` of a group, `;;` of a case arm) or the end of input. */
  script(end: ")" | "}" | ";;" | ""): Script {
    const commands: Command[] = [];
    let piped = false;
    for (;;) {
      this.blanks();
      const c = this.s[this.i];
      if (c === undefined) break;
      if (c === "#") this.comment();
      else if (c === "\n") {
        this.i++;
        this.heredocs();
        piped = false;
      } else if (c === ";") {
        if (end === ";;" && this.s[this.i + 1] === ";") break;
        if (end === ";;" && this.s[this.i + 1] === "&") break;
        this.i++;
        piped = false;
      } else if (c === "&" && this.s[this.i + 1] !== ">") {
        this.i += this.s[this.i + 1] === "&" ? 2 : 1;
        piped = false;
      } else if (c === "|") {
        piped = this.s[this.i + 1] !== "|";
        this.i += this.s[this.i + 1] === "|" || this.s[this.i + 1] === "&" ? 2 : 1;
      } else if (c === ")") {
        if (end === ")") break;
        this.i++;
      } else if (end === "}" && this.peekWord() === "}") {
        break;
      } else if (end === ";;" && this.peekWord() === "esac") {
        break;
      } else {
        const command = this.command(piped);
        if (command === "keyword") continue;
        if (command) commands.push(command);
        piped = false;
      }
    }
    return { commands };
  }

  private command(piped: boolean): Command | "keyword" | undefined {
    const c = this.s[this.i];
    if (c === "(") {
      if (this.s[this.i + 1] === "(") {
        this.skipArithmetic(this.i + 2);
        return undefined;
      }
      this.i++;
      const body = this.nested((p) => p.script(")"));
      this.expect(")");
      return { kind: "group", body, redirects: this.redirects(), piped, subshell: true };
    }
    const word = this.peekWord();
    if (word === "{") {
      this.i++;
      const body = this.nested((p) => p.script("}"));
      this.blanks();
      if (this.s[this.i] === "}") this.i++;
      return { kind: "group", body, redirects: this.redirects(), piped, subshell: false };
    }
    if (KEYWORDS.has(word)) {
      this.i += word.length;
      return "keyword";
    }
    if (word === "for" || word === "select") return this.forLoop(word);
    if (word === "case") return this.caseCommand();
    if (word === "[[") return this.testCommand();
    if (word === "function") {
      this.i += word.length;
      this.blanks();
      this.word();
      this.blanks();
      if (this.s.startsWith("()", this.i)) this.i += 2;
      return "keyword";
    }
    return this.simple(piped);
  }

  private simple(piped: boolean): SimpleCommand | "keyword" {
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      this.blanks();
      const c = this.s[this.i];
      if (c === undefined || c === "\n" || c === ";" || c === "|" || c === ")" || (c === "&" && this.s[this.i + 1] !== ">")) break;
      // A `#` that starts a word starts a comment.
      if (c === "#") break;
      if ((c === "<" || c === ">") && this.s[this.i + 1] === "(") {
        words.push([this.processSubstitution()]);
        continue;
      }
      if (c === "<" || c === ">" || c === "&") {
        redirects.push(this.redirect());
        continue;
      }
      if (c === "(") {
        // `name() { ...; }`: a function definition; its body is parsed as the next command.
        if (words.length === 1 && this.s[this.i + 1] === ")") {
          this.i += 2;
          return "keyword";
        }
        this.i++;
        continue;
      }
      const start = this.i;
      const word = this.word();
      // `2>file`, `{fd}<file`: digits (or a {name}) right before a redirection are its descriptor.
      if ((this.s[this.i] === "<" || this.s[this.i] === ">") && /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(this.s.slice(start, this.i))) continue;
      // `arr=(a b c)`: an array assignment; its elements are words like any other.
      if (this.s[this.i] === "(" && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(this.s.slice(start, this.i))) {
        this.i++;
        words.push(word);
        for (this.blanks(true); this.s[this.i] !== undefined && this.s[this.i] !== ")"; this.blanks(true)) words.push(this.word());
        this.expect(")");
        continue;
      }
      words.push(word);
    }
    return { kind: "simple", words, redirects, piped };
  }

  private redirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      this.blanks();
      const c = this.s[this.i];
      if (c !== "<" && c !== ">" && !(c === "&" && this.s[this.i + 1] === ">") && !/\d/.test(c ?? "")) return out;
      if (/\d/.test(c!)) {
        const m = /^\d+(?=[<>])/.exec(this.s.slice(this.i));
        if (!m) return out;
        this.i += m[0].length;
      }
      out.push(this.redirect());
    }
  }

  private redirect(): Redirect {
    const op = REDIRECT_OPS.find((candidate) => this.s.startsWith(candidate, this.i))!;
    this.i += op.length;
    this.blanks();
    if (op === "<<" || op === "<<-") {
      const start = this.i;
      const word = this.word();
      const raw = this.s.slice(start, this.i);
      const quoted = /['"\\]/.test(raw);
      const redirect: Redirect = { op: "<<", heredoc: { body: "" } };
      this.pending.push({ delimiter: textOf(word), stripTabs: op === "<<-", quoted, redirect });
      return redirect;
    }
    return { op, target: this.word() };
  }

  /** Reads the bodies of the here-documents opened on the line just ended. */
  private heredocs(): void {
    for (const doc of this.pending.splice(0)) {
      const lines: string[] = [];
      while (this.i < this.s.length) {
        const newline = this.s.indexOf("\n", this.i);
        const stop = newline < 0 ? this.s.length : newline;
        const line = this.s.slice(this.i, stop);
        this.i = Math.min(stop + 1, this.s.length);
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
        lines.push(doc.stripTabs ? line.replace(/^\t+/, "") : line);
      }
      const body = lines.join("\n");
      doc.redirect.heredoc = doc.quoted ? { body } : { body, expanded: parseExpandedText(body, this.depth + 1) };
    }
  }

  /** One word: its parts, up to an unquoted blank or operator. */
  word(): Word {
    const parts: Part[] = [];
    let text = "";
    const flush = () => {
      if (text !== "") parts.push({ kind: "text", text, quoted: false });
      text = "";
    };
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (META.has(c)) break;
      if (c === "\\") {
        const next = this.s[this.i + 1];
        this.i += 2;
        if (next === undefined || next === "\n") continue;
        flush();
        parts.push({ kind: "text", text: next, quoted: true });
      } else if (c === "'") {
        flush();
        const close = this.s.indexOf("'", this.i + 1);
        const stop = close < 0 ? this.s.length : close;
        parts.push({ kind: "text", text: this.s.slice(this.i + 1, stop), quoted: true });
        this.i = stop + 1;
      } else if (c === '"') {
        flush();
        this.i++;
        parts.push(...this.doubleQuoted(true));
      } else if (c === "`" || c === "$") {
        flush();
        if (!this.expansion(false, parts)) {
          text += "$";
          this.i++;
        }
      } else {
        text += c;
        this.i++;
      }
    }
    flush();
    return parts;
  }

  /**
   * The inside of `"..."` (from just after the opening quote), or a whole here-document body
   * (`closing` false: a `"` is then an ordinary character and the text runs to the end).
   */
  doubleQuoted(closing: boolean): Part[] {
    const parts: Part[] = [];
    let text = "";
    const flush = () => {
      if (text !== "") parts.push({ kind: "text", text, quoted: true });
      text = "";
    };
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"' && closing) {
        this.i++;
        break;
      }
      if (c === "\\" && this.i + 1 < this.s.length && `$\`\\\n${closing ? '"' : ""}`.includes(this.s[this.i + 1]!)) {
        if (this.s[this.i + 1] !== "\n") text += this.s[this.i + 1];
        this.i += 2;
      } else if (c === "`" || c === "$") {
        flush();
        if (!this.expansion(true, parts)) {
          text += "$";
          this.i++;
        }
      } else {
        text += c;
        this.i++;
      }
    }
    flush();
    if (parts.length === 0) parts.push({ kind: "text", text: "", quoted: true });
    return parts;
  }

  /** A back quote or `$` expansion at the cursor, added to `parts`; false for a literal `$`. */
  private expansion(quoted: boolean, parts: Part[]): boolean {
    if (this.s[this.i] === "`") {
      parts.push(this.backQuoted(quoted));
      return true;
    }
    // Inside double quotes `$'` is a `$` and a quote, not ANSI-C quoting.
    const found = quoted && this.s[this.i + 1] === "'" ? undefined : this.dollar(quoted);
    if (found === undefined) return false;
    parts.push(...found);
    return true;
  }

  /** What a `$` at the cursor starts, or undefined for a literal `$`. */
  private dollar(quoted: boolean): Part[] | undefined {
    const next = this.s[this.i + 1];
    if (next === "'" && !quoted) {
      const { text, end } = ansiC(this.s, this.i + 2);
      this.i = end;
      return [{ kind: "text", text, quoted: true }];
    }
    if (next === '"' && !quoted) {
      this.i += 2;
      return this.doubleQuoted(true);
    }
    if (next === "(") {
      if (this.s[this.i + 2] === "(") {
        this.skipArithmetic(this.i + 3);
        return [{ kind: "arith", quoted }];
      }
      this.i += 2;
      const script = this.nested((p) => p.script(")"));
      this.expect(")");
      return [{ kind: "command", script, quoted }];
    }
    if (next === "[") {
      // `$[ ... ]`: bash's old arithmetic.
      const close = this.s.indexOf("]", this.i);
      this.i = close < 0 ? this.s.length : close + 1;
      return [{ kind: "arith", quoted }];
    }
    if (next === "{") {
      const close = matchingBrace(this.s, this.i + 2);
      const body = this.s.slice(this.i + 2, close);
      this.i = Math.min(close + 1, this.s.length);
      const name = /^[#!]?(?:[A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])/.exec(body)?.[0] ?? "";
      return [{ kind: "param", name: name.replace(/^[#!](?=.)/, ""), quoted, inner: body.slice(name.length) }];
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|\d|[@*#?$!-])/.exec(this.s.slice(this.i + 1))?.[0];
    if (name === undefined) return undefined;
    this.i += 1 + name.length;
    return [{ kind: "param", name, quoted, inner: "" }];
  }

  private backQuoted(quoted: boolean): Part {
    let inner = "";
    let j = this.i + 1;
    for (; j < this.s.length && this.s[j] !== "`"; j++) {
      if (this.s[j] === "\\" && j + 1 < this.s.length && "\\`$".includes(this.s[j + 1]!)) j++;
      inner += this.s[j];
    }
    this.i = j + 1;
    return { kind: "command", script: new Parser(inner, this.depth + 1).script(""), quoted };
  }

  private processSubstitution(): Part {
    this.i += 2;
    const script = this.nested((p) => p.script(")"));
    this.expect(")");
    return { kind: "process", script };
  }

  private forLoop(keyword: string): ForCommand | "keyword" {
    this.i += keyword.length;
    this.blanks();
    if (this.s.startsWith("((", this.i)) {
      this.skipArithmetic(this.i + 2);
      return "keyword";
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))?.[0] ?? "";
    this.i += name.length;
    this.blanks(true);
    if (this.peekWord() !== "in") return { kind: "for", name, items: undefined };
    this.i += 2;
    const items: Word[] = [];
    for (this.blanks(); this.s[this.i] !== undefined && !";\n&|)".includes(this.s[this.i]!); this.blanks()) items.push(this.word());
    return { kind: "for", name, items };
  }

  /** `case WORD in PATTERN) LIST ;; ... esac`: the subject and every arm's commands. */
  private caseCommand(): GroupCommand {
    this.i += 4;
    this.blanks();
    const subject = this.word();
    const commands: Command[] = [{ kind: "expand", words: [subject] }];
    this.blanks(true);
    if (this.peekWord() === "in") this.i += 2;
    for (;;) {
      this.blanks(true);
      if (this.i >= this.s.length) break;
      if (this.peekWord() === "esac") {
        this.i += 4;
        break;
      }
      if (this.s[this.i] === "(") this.i++;
      // The patterns, up to the `)` that ends them: expanded, never run.
      const patterns: Word[] = [];
      while (this.i < this.s.length && this.s[this.i] !== ")") {
        if (" \t\n|".includes(this.s[this.i]!)) this.i++;
        else {
          const before = this.i;
          patterns.push(this.word());
          if (this.i === before) this.i++;
        }
      }
      this.i++;
      commands.push({ kind: "expand", words: patterns });
      const arm = this.nested((p) => p.script(";;"));
      commands.push(...arm.commands);
      for (const terminator of [";;&", ";;", ";&"]) {
        if (this.s.startsWith(terminator, this.i)) {
          this.i += terminator.length;
          break;
        }
      }
    }
    return { kind: "group", body: { commands }, redirects: this.redirects(), piped: false, subshell: false };
  }

  /** `[[ ... ]]`: its words are expanded (no word splitting, no globbing); `<` and `>` compare strings. */
  private testCommand(): ExpandCommand {
    this.i += 2;
    const words: Word[] = [];
    for (;;) {
      this.blanks(true);
      if (this.i >= this.s.length) break;
      if (this.s.startsWith("]]", this.i)) {
        this.i += 2;
        break;
      }
      if ("<>()&|".includes(this.s[this.i]!)) {
        this.i++;
        continue;
      }
      words.push(this.word());
    }
    return { kind: "expand", words };
  }

  /** Runs `parse` one level deeper from the cursor, on the same source, then moves past what it read. */
  private nested<T>(parse: (parser: Parser) => T): T {
    const child = new Parser(this.s, this.depth + 1);
    child.i = this.i;
    const result = parse(child);
    this.i = child.i;
    // A here-document opened inside `$(...)` on this line has its body after the line ends.
    this.pending.push(...child.pending);
    return result;
  }

  private expect(char: string): void {
    if (this.s[this.i] === char) this.i++;
  }

  private blanks(newlines = false): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === " " || c === "\t" || (newlines && c === "\n")) this.i++;
      else if (c === "\\" && this.s[this.i + 1] === "\n") this.i += 2;
      else return;
    }
  }

  private comment(): void {
    const newline = this.s.indexOf("\n", this.i);
    this.i = newline < 0 ? this.s.length : newline;
  }

  /** The unquoted word at the cursor, as written (for keywords), without moving. */
  private peekWord(): string {
    let j = this.i;
    while (j < this.s.length && !META.has(this.s[j]!)) j++;
    return this.s.slice(this.i, j);
  }

  private skipArithmetic(from: number): void {
    let depth = 2;
    let j = from;
    for (; j < this.s.length && depth > 0; j++) {
      if (this.s[j] === "(") depth++;
      else if (this.s[j] === ")") depth--;
    }
    this.i = j;
  }
}

/** The text of a word's literal parts (a here-document delimiter). */
function textOf(word: Word): string {
  return word.map((part) => (part.kind === "text" ? part.text : part.kind === "param" ? `$${part.name}` : "")).join("");
}
