/** At most this many words from one brace expression: `{a,b}{c,d}...` grows exponentially. */
export const MAX_BRACE_WORDS = 256;

/**
 * Bash's brace expansion of one word (`{secrets,docs}/x` -> `secrets/x docs/x`, `a{1..3}`), done
 * before matching so a pattern cannot hide a path. Quoted braces reach it as stand-ins
 * (shell-expand.ts) and stay literal, as in bash. More than MAX_BRACE_WORDS results: undefined
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
  return out;
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
