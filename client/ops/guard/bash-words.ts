/** One simple command: its words, and the bodies of the here-documents fed to it. */
export interface CommandSegment {
  words: string[];
  heredocs: string[];
}

/**
 * The words of a shell command, as a POSIX shell would split them before expansion, grouped by
 * simple command: quotes and backslashes are removed; `;`, `&`, `|`, `(`, `)` and newlines start
 * a new group, redirections end a word but not the group (`grep -r x . > out` is one group).
 * Variables, command substitutions and globs are not expanded: the guard checks the paths a
 * command names, not the ones it might compute (docs/agents.md says so). Here-document bodies
 * are kept (`python3 <<EOF ... EOF` feeds its body to python3).
 *
 * @example
 * ```ts
 * parseCommand(`cat 'my file' >out.txt && grep -r x "src/a b"`).map((s) => s.words) // [["cat", "my file", "out.txt"], ["grep", "-r", "x", "src/a b"]]
 * ```
 */
export function parseCommand(command: string): CommandSegment[] {
  const segments: CommandSegment[] = [{ words: [], heredocs: [] }];
  const pending: { delimiter: string; stripTabs: boolean; segment: CommandSegment }[] = [];
  let word = "";
  let inWord = false;
  const current = () => segments[segments.length - 1]!;
  const end = () => {
    if (inWord) current().words.push(word);
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
    } else if (char === "<" && command[i + 1] === "<" && command[i + 2] !== "<") {
      // A here-document: its delimiter is the next word; its body starts on the next line.
      end();
      let j = i + 2;
      const stripTabs = command[j] === "-";
      if (stripTabs) j++;
      while (command[j] === " " || command[j] === "\t") j++;
      let delimiter = "";
      for (; j < command.length && !/[\s;&|()<>]/.test(command[j]!); j++) if (!"'\"\\".includes(command[j]!)) delimiter += command[j];
      pending.push({ delimiter, stripTabs, segment: current() });
      i = j - 1;
    } else if (char === "\n" && pending.length > 0) {
      end();
      i = readHeredocs(command, i + 1, pending.splice(0)) - 1;
      if (current().words.length > 0) segments.push({ words: [], heredocs: [] });
    } else if (char === "\n" || ";&|()".includes(char)) {
      end();
      if (current().words.length > 0) segments.push({ words: [], heredocs: [] });
    } else if (/\s/.test(char) || "<>".includes(char)) {
      end();
    } else {
      word += char;
      inWord = true;
    }
  }
  end();
  return segments.filter((segment) => segment.words.length > 0);
}

/** Reads here-document bodies from `start`, one per pending delimiter; returns where the command goes on. */
function readHeredocs(command: string, start: number, pending: { delimiter: string; stripTabs: boolean; segment: CommandSegment }[]): number {
  let at = start;
  for (const doc of pending) {
    const lines: string[] = [];
    while (at < command.length) {
      const newline = command.indexOf("\n", at);
      const stop = newline < 0 ? command.length : newline;
      const line = command.slice(at, stop);
      at = stop + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
      lines.push(line);
    }
    doc.segment.heredocs.push(lines.join("\n"));
  }
  return Math.min(at, command.length);
}

/** At most this many words from one brace expression: `{a,b}{c,d}...` grows exponentially. */
export const MAX_BRACE_WORDS = 256;

/**
 * Bash's brace expansion of one word (`{secrets,docs}/x` -> `secrets/x docs/x`, `a{1..3}`), done
 * before matching so a pattern cannot hide a path. Quotes are already gone, so a quoted brace is
 * expanded too: stricter than bash, never looser. More than MAX_BRACE_WORDS results: undefined
 * (the caller fails closed).
 */
export function expandBraces(word: string): string[] | undefined {
  const out: string[] = [];
  const queue = [word];
  while (queue.length > 0) {
    const item = queue.pop()!;
    const group = firstBraceGroup(item);
    if (group === undefined) {
      out.push(item);
      if (out.length > MAX_BRACE_WORDS) return undefined;
      continue;
    }
    const head = item.slice(0, group.open);
    const tail = item.slice(group.close + 1);
    for (const part of group.parts.reverse()) queue.push(head + part + tail);
    if (queue.length + out.length > MAX_BRACE_WORDS) return undefined;
  }
  return out.reverse();
}

function firstBraceGroup(word: string): { open: number; close: number; parts: string[] } | undefined {
  for (let open = word.indexOf("{"); open >= 0; open = word.indexOf("{", open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < word.length; i++) {
      if (word[i] === "{") depth++;
      else if (word[i] === "}") {
        depth--;
        if (depth === 0) {
          const inner = word.slice(open + 1, i);
          if (commas.length > 0) {
            const parts: string[] = [];
            let from = open + 1;
            for (const comma of commas) {
              parts.push(word.slice(from, comma));
              from = comma + 1;
            }
            parts.push(word.slice(from, i));
            return { open, close: i, parts };
          }
          const range = sequence(inner);
          if (range) return { open, close: i, parts: range };
          break;
        }
      } else if (word[i] === "," && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

/** `1..3`, `a..c`, `1..10..2`: bash's sequence expressions (capped like the rest). */
function sequence(inner: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
  if (!numeric && !alpha) return undefined;
  const from = numeric ? Number(numeric[1]) : alpha![1]!.charCodeAt(0);
  const to = numeric ? Number(numeric[2]) : alpha![2]!.charCodeAt(0);
  const step = Math.abs(Number(numeric?.[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > MAX_BRACE_WORDS) return Array.from({ length: MAX_BRACE_WORDS + 1 }, () => "");
  const parts: string[] = [];
  for (let k = 0, v = from; k < count; k++, v += from <= to ? step : -step) parts.push(numeric ? String(v) : String.fromCharCode(v));
  return parts;
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
