/**
 * The words of a shell command, as a POSIX shell would split them before expansion, grouped by
 * simple command: quotes and backslashes are removed; `;`, `&`, `|`, `(`, `)` and newlines start
 * a new group, redirections end a word but not the group (`grep -r x . > out` is one group).
 * Variables, command substitutions and globs are not expanded: the guard checks the paths a
 * command names, not the ones it might compute (docs/agents.md says so).
 *
 * @example
 * ```ts
 * commandSegments(`cat 'my file' >out.txt && grep -r x "src/a b"`) // [["cat", "my file", "out.txt"], ["grep", "-r", "x", "src/a b"]]
 * ```
 */
export function commandSegments(command: string): string[][] {
  const segments: string[][] = [[]];
  let word = "";
  let inWord = false;
  const end = () => {
    if (inWord) segments[segments.length - 1]!.push(word);
    word = "";
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (char === "'") {
      const close = command.indexOf("'", i + 1);
      const stop = close < 0 ? command.length : close;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (char === '"') {
      inWord = true;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === "\\" && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1]!)) i++;
        word += command[i];
      }
    } else if (char === "\\" && i + 1 < command.length) {
      if (command[i + 1] !== "\n") {
        word += command[i + 1];
        inWord = true;
      }
      i++;
    } else if (char === "#" && !inWord) {
      // A comment runs to the end of the line.
      const newline = command.indexOf("\n", i);
      i = newline < 0 ? command.length : newline - 1;
    } else if (char === "\n" || ";&|()".includes(char)) {
      end();
      if (segments[segments.length - 1]!.length > 0) segments.push([]);
    } else if (/\s/.test(char) || "<>".includes(char)) {
      end();
    } else {
      word += char;
      inWord = true;
    }
  }
  end();
  return segments.filter((segment) => segment.length > 0);
}

/**
 * The words of a command that may name a path: every word, plus the value of `--flag=value`;
 * bare flags (`-r`, `--json`) and file-descriptor numbers of redirections are skipped.
 */
export function pathWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    if (word.startsWith("-")) {
      const eq = word.indexOf("=");
      if (eq > 0 && eq < word.length - 1) out.push(word.slice(eq + 1));
      continue;
    }
    if (/^\d+$/.test(word) || word === "") continue;
    const eq = word.indexOf("=");
    // NAME=value assignments: the value may be a path.
    if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.slice(0, eq))) {
      if (eq < word.length - 1) out.push(word.slice(eq + 1));
      continue;
    }
    out.push(word);
  }
  return out;
}
