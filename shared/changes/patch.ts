import { type BundleMode, pathProblem } from "./path.js";
import { concatBytes } from "./bundle.js";
import { decodeBase85Line } from "./git-binary.js";

/**
 * Reads a changes bundle's patch the way `git apply` would, so the receiver knows, before git
 * sees a byte, every file the patch touches: its path, its mode before and after, whether it is
 * created or deleted, binary or text, a symbolic link's new target, and how many bytes applying
 * it writes. Strict on purpose: every line must belong to a section git diff writes (`diff --git`
 * header, extended headers, text hunks counted by their `@@` ranges, binary hunks); anything else,
 * including text git apply would skip as junk or read as a second, traditional patch, refuses the
 * patch. Renames and copies are refused: capture never makes them (`--no-renames`).
 * Pure: bytes in, values out.
 */

export interface PatchEntry {
  path: string;
  /** The mode before (null: the patch creates the file) and after (null: it deletes it). */
  from_mode: BundleMode | null;
  to_mode: BundleMode | null;
  binary: boolean;
  /** Bytes a text hunk adds (its `+` lines). For binary hunks see `binary_hunks`. */
  added_bytes: number;
  /** A symbolic link's target after the patch (to_mode 120000). */
  link_target?: string;
  /** The binary hunks as declared (forward first): their sizes and, for a delta, its deflated data. */
  binary_hunks: { kind: "literal" | "delta"; size: number; data: Uint8Array }[];
  /** The section's byte range in the patch. */
  start: number;
  end: number;
}

/** A refusal: which path (when known), which line, and why. */
export interface PatchProblem {
  path?: string;
  line: number;
  why: string;
}

const MODES: ReadonlySet<string> = new Set(["100644", "100755", "120000"]);

/**
 * Parses a `git diff --binary` patch into its entries, or says why it cannot be trusted.
 *
 * @example
 * ```ts
 * parsePatch(bytes("diff --git a/x b/x\nindex 1111111..2222222 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"))
 * // { entries: [{ path: "x", from_mode: "100644", to_mode: "100644", binary: false, added_bytes: 2, ... }] }
 * ```
 */
export function parsePatch(patch: Uint8Array): { entries: PatchEntry[] } | { problem: PatchProblem } {
  const text = new TextDecoder("latin1").decode(patch);
  if (text === "") return { entries: [] };
  if (!text.endsWith("\n")) return { problem: { line: text.split("\n").length, why: "the patch does not end with a newline" } };
  const lines = text.slice(0, -1).split("\n");
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  offsets.push(at);
  const entries: PatchEntry[] = [];
  let i = 0;
  try {
    while (i < lines.length) {
      const start = i;
      const entry = parseSection(lines, i);
      i = entry.next;
      entries.push({ ...entry.entry, start: offsets[start] ?? 0, end: offsets[i] ?? text.length });
    }
  } catch (error) {
    if (error instanceof Refusal) return { problem: { line: error.line + 1, why: error.why, ...(error.path === undefined ? {} : { path: error.path }) } };
    throw error;
  }
  return { entries };
}

class Refusal extends Error {
  constructor(
    readonly line: number,
    readonly why: string,
    readonly path?: string,
  ) {
    super(why);
  }
}

type Parsed = Omit<PatchEntry, "start" | "end">;

function parseSection(lines: string[], first: number): { entry: Parsed; next: number } {
  const header = lines[first] ?? "";
  if (!header.startsWith("diff --git ")) throw new Refusal(first, "a line outside any file's section (every section starts with 'diff --git')");
  const path = headerPath(header.slice("diff --git ".length), first);
  const fail = (line: number, why: string) => new Refusal(line, why, path);
  let i = first + 1;
  const seen = new Map<string, string>();
  for (; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const match = /^(old mode|new mode|deleted file mode|new file mode|index) (.*)$/.exec(line);
    if (match === null) {
      if (/^(rename|copy) (from|to) |^(dis)?similarity index /.test(line)) throw fail(i, "a rename or copy, which a changes bundle never carries");
      break;
    }
    const [, key = "", value = ""] = match;
    if (seen.has(key)) throw fail(i, `'${key}' appears twice`);
    seen.set(key, value);
  }
  const asMode = (value: string | undefined): BundleMode | undefined => {
    if (value === undefined) return undefined;
    if (!MODES.has(value)) throw fail(first, value === "160000" ? "a submodule (mode 160000), which a changes bundle never carries" : `mode ${value}, which a changes bundle never carries`);
    return value as BundleMode;
  };
  const modeOf = (key: string) => asMode(seen.get(key));
  const index = seen.get("index");
  const indexParts = index === undefined ? undefined : /^([0-9a-f]{7,64})\.\.([0-9a-f]{7,64})(?: ([0-7]{6}))?$/.exec(index);
  if (index !== undefined && indexParts === null) throw fail(first, `an index line git does not write ('index ${index}')`);
  const indexMode = asMode(indexParts?.[3]);
  const created = modeOf("new file mode");
  const deleted = modeOf("deleted file mode");
  const oldMode = modeOf("old mode");
  const newMode = modeOf("new mode");
  if ((oldMode === undefined) !== (newMode === undefined)) throw fail(first, "'old mode' and 'new mode' go together");
  if (created !== undefined && deleted !== undefined) throw fail(first, "a file both created and deleted");
  if ((created !== undefined || deleted !== undefined) && (oldMode !== undefined || indexMode !== undefined)) throw fail(first, "a created or deleted file with a second mode");
  let from: BundleMode | null;
  let to: BundleMode | null;
  if (created !== undefined) [from, to] = [null, created];
  else if (deleted !== undefined) [from, to] = [deleted, null];
  else if (oldMode !== undefined && newMode !== undefined) {
    if (indexMode !== undefined) throw fail(first, "a mode change with a third mode on its index line");
    [from, to] = [oldMode, newMode];
  } else if (indexMode !== undefined) [from, to] = [indexMode, indexMode];
  else throw fail(first, "no mode stated for it");
  if ((from === "120000") !== (to === "120000") && from !== null && to !== null) throw fail(first, "a change between a file and a symbolic link in one section");
  const problem = pathProblem(path, to ?? from ?? "100644");
  if (problem) throw fail(first, `its path is refused: ${problem}`);

  const entry: Parsed = { path, from_mode: from, to_mode: to, binary: false, added_bytes: 0, binary_hunks: [] };
  const line = lines[i];
  if (line === "GIT binary patch") {
    if (index === undefined || indexParts?.[1]?.length !== indexParts?.[2]?.length || (indexParts?.[1]?.length ?? 0) < 40) throw fail(i, "a binary patch without a full index line");
    entry.binary = true;
    i = binaryHunks(lines, i + 1, entry, fail);
  } else if (line?.startsWith("--- ")) {
    const plus = lines[i + 1] ?? "";
    const oldName = nameOf(line.slice(4), "a/", path);
    const newName = plus.startsWith("+++ ") ? nameOf(plus.slice(4), "b/", path) : "bad";
    if (oldName === "bad" || newName === "bad" || (oldName === null) !== (from === null) || (newName === null) !== (to === null)) {
      throw fail(i, "its '---'/'+++' lines do not name the same file as its 'diff --git' line");
    }
    i = textHunks(lines, i + 2, entry, fail);
  } else if (line?.startsWith("Binary files ")) {
    throw fail(i, "a binary change without its content (a patch made without --binary)");
  }
  // What is left must be the next section or the end: nothing git apply would skip or read otherwise.
  if (i < lines.length && !(lines[i] ?? "").startsWith("diff --git ")) throw fail(i, "a line that belongs to no hunk");
  if (to === "120000" && entry.link_target === undefined) throw fail(first, "a symbolic link whose target the patch does not show");
  return { entry, next: i };
}

/** `a/P b/P` → P (one path: a bundle never renames); a quoted or mismatched header is refused. */
function headerPath(rest: string, line: number): string {
  if (rest.startsWith('"')) throw new Refusal(line, "a quoted file name (git quotes names with unusual characters)");
  const length = (rest.length - 5) / 2;
  const path = rest.slice(2, 2 + length);
  if (!Number.isInteger(length) || length < 1 || rest !== `a/${path} b/${path}`) throw new Refusal(line, `a 'diff --git' line that does not name one file twice ('${rest.slice(0, 200)}')`);
  return utf8Path(path, line);
}

/** A path's bytes (held as latin-1 characters) read as UTF-8; a path that is not UTF-8 is refused. */
function utf8Path(latin: string, line: number): string {
  const bytes = Uint8Array.from(latin, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Refusal(line, "a file name that is not UTF-8");
  }
}

/** The name on a `---`/`+++` line: null for /dev/null, "bad" when it is not `<prefix>P` (a tab may follow a name with a space). */
function nameOf(value: string, prefix: string, path: string): string | null | "bad" {
  if (value === "/dev/null") return null;
  const name = value.endsWith("\t") ? value.slice(0, -1) : value;
  if (!name.startsWith(prefix)) return "bad";
  try {
    return utf8Path(name.slice(prefix.length), 0) === path ? path : "bad";
  } catch {
    return "bad";
  }
}

function textHunks(lines: string[], first: number, entry: Parsed, fail: (line: number, why: string) => Refusal): number {
  let i = first;
  const newSide: string[] = [];
  let hunks = 0;
  let noNewline = false;
  while (i < lines.length && (lines[i] ?? "").startsWith("@@ ")) {
    const range = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i] ?? "");
    if (range === null) throw fail(i, "a hunk header git does not write");
    let old = range[2] === undefined ? 1 : Number(range[2]);
    let add = range[4] === undefined ? 1 : Number(range[4]);
    if (entry.to_mode === "120000" && (hunks > 0 || (add > 0 && range[3] !== "1"))) throw fail(i, "a symbolic link's change that does not show its whole target");
    hunks++;
    i++;
    let last = "";
    while (old > 0 || add > 0) {
      const line = lines[i];
      if (line === undefined) throw fail(i, "a hunk shorter than its header says");
      const kind = line[0];
      if (kind === " ") {
        old--;
        add--;
        newSide.push(line.slice(1));
      } else if (kind === "-") old--;
      else if (kind === "+") {
        add--;
        entry.added_bytes += line.length;
        newSide.push(line.slice(1));
      } else if (kind !== "\\") throw fail(i, "a line inside a hunk that is not context, '+', '-' or '\\'");
      if (old < 0 || add < 0) throw fail(i, "a hunk longer than its header says");
      last = kind ?? "";
      i++;
    }
    // "\ No newline at end of file" after the hunk's last line.
    if ((lines[i] ?? "").startsWith("\\")) {
      if (last === "+" || last === " ") {
        noNewline = true;
        if (last === "+") entry.added_bytes--;
      }
      i++;
    }
  }
  if (hunks === 0) throw fail(first, "'---'/'+++' lines without a hunk");
  if (entry.to_mode === "120000") entry.link_target = utf8Path(newSide.join("\n") + (noNewline ? "" : "\n"), first);
  return i;
}

function binaryHunks(lines: string[], first: number, entry: Parsed, fail: (line: number, why: string) => Refusal): number {
  let i = first;
  for (let hunk = 0; hunk < 2; hunk++) {
    const head = /^(literal|delta) (\d{1,15})$/.exec(lines[i] ?? "");
    if (head === null) {
      if (hunk === 0) throw fail(i, "a binary patch without a 'literal' or 'delta' hunk");
      break;
    }
    i++;
    const chunks: Uint8Array[] = [];
    for (; (lines[i] ?? "") !== ""; i++) {
      const decoded = decodeBase85Line(lines[i] ?? "");
      if (decoded === undefined) throw fail(i, "a binary hunk line that is not git's base85");
      chunks.push(decoded);
    }
    if (lines[i] !== "") throw fail(i, "a binary hunk that does not end with an empty line");
    i++;
    entry.binary_hunks.push({ kind: head[1] as "literal" | "delta", size: Number(head[2]), data: concatBytes(chunks) });
  }
  return i;
}
