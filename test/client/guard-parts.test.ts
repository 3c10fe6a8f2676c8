import { execFileSync } from "node:child_process";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../client/cli/main.js";
import { COMPUTED, type ExpandScope, expandWord } from "../../client/ops/guard/shell-expand.js";
import type { Script } from "../../client/ops/guard/shell-ast.js";
import { parseShell } from "../../client/ops/guard/shell-parse.js";
import { embeddedPaths } from "../../client/ops/guard/programs.js";
import { readsOfCommand } from "../../client/ops/guard/shell-reads.js";
import { fnmatchcase } from "../../client/ops/guard/fnmatch.js";
import type { Io } from "../../client/platform/io.js";
import { liveSpecDir } from "../helpers/kernel-reference.js";

// The guard's parts: fnmatchcase against Python's own (the reference guard's matcher), the
// shell-word splitter on table cases, and the registry path through main().

// Each with Python's fnmatch.fnmatchcase answer (Python 3.11), so the table holds without Python.
const FNMATCH_CASES: [string, string, boolean][] = [
  ["secrets/key.pem", "secrets/*", true],
  ["secrets/a/b/key.pem", "secrets/*", true],
  ["keys/a.pem", "*.pem", true],
  ["a.pem", "*.pem", true],
  ["a.pem.bak", "*.pem", false],
  ["src/a.ts", "src/?.ts", true],
  ["src/ab.ts", "src/?.ts", false],
  ["src/b.ts", "src/[abc].ts", true],
  ["src/d.ts", "src/[!abc].ts", true],
  ["src/d.ts", "src/[a-c].ts", false],
  ["src/[.ts", "src/[.ts", true],
  ["", "*", true],
  ["abc", "", false],
  ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "*a*a*a*a*a*a*a*a*c", false],
  [".env", ".env", true],
  ["env", ".env", false],
];

describe("fnmatchcase", () => {
  it("gives Python's fnmatch.fnmatchcase answers", () => {
    expect(FNMATCH_CASES.map(([name, pattern]) => [name, pattern, fnmatchcase(name, pattern)])).toEqual(FNMATCH_CASES);
    expect(FNMATCH_CASES.filter(([, , matches]) => matches).length).toBeGreaterThan(4);
  });

  it("the table's answers are still Python's (live, beside the reference)", () => {
    liveSpecDir();
    const python = JSON.parse(
      execFileSync("python3", ["-c", "import fnmatch, json, sys; print(json.dumps([fnmatch.fnmatchcase(n, p) for n, p in json.load(sys.stdin)]))"], {
        input: JSON.stringify(FNMATCH_CASES.map(([n, p]) => [n, p])),
        encoding: "utf8",
      }),
    ) as boolean[];
    expect(python).toEqual(FNMATCH_CASES.map(([, , matches]) => matches));
  });
});

/** Each simple command's words after expansion (COMPUTED shown as `$…`), substitutions' commands after their own. */
function wordsOf(command: string): string[][] {
  const out: string[][] = [];
  const visit = (script: Script): void => {
    for (const entry of script.commands) {
      if (entry.kind === "group") visit(entry.body);
      if (entry.kind !== "simple") continue;
      const scope: ExpandScope = { vars: new Map(), home: "/home/u", cwd: "/r", onCommand: visit, onText: () => {} };
      const words = entry.words.flatMap((word) => (expandWord(word, scope) ?? []).map((field) => field.text.replaceAll(COMPUTED, "$…")));
      const targets = entry.redirects.map((redirect) =>
        redirect.heredoc ? `<<${redirect.heredoc.body}` : `${redirect.op}${(expandWord(redirect.target ?? [], scope) ?? []).map((f) => f.text).join(" ")}`,
      );
      out.push([...words, ...targets]);
    }
  };
  visit(parseShell(command));
  return out;
}

describe("shell words", () => {
  it.each([
    [
      "cat secrets/key.pem | head -5",
      [
        ["cat", "secrets/key.pem"],
        ["head", "-5"],
      ],
    ],
    [`sed -n 1p "my dir/a b.txt" 'x y'`, [["sed", "-n", "1p", "my dir/a b.txt", "x y"]]],
    ["grep -r x . > out.txt 2>err.log", [["grep", "-r", "x", ".", ">out.txt", ">err.log"]]],
    ["cd src && ls; echo done # cat secrets/key.pem", [["cd", "src"], ["ls"], ["echo", "done"]]],
    ["a\\ b c\\\nd", [["a b", "cd"]]],
    ['echo "a \\"quoted\\" word"', [["echo", 'a "quoted" word']]],
    [
      "(cat x)\ncat y",
      [
        ["cat", "x"],
        ["cat", "y"],
      ],
    ],
    ["< .env cat", [["cat", "<.env"]]],
    ["echo $(< .env) `cat k`", [["<.env"], ["cat", "k"], ["echo", "$…", "$…"]]],
    ["cat $'\\x73e\\143rets' $\"q\" ~/x {a,b}.md '{c,d}'", [["cat", "secrets", "q", "/home/u/x", "a.md", "b.md", "{c,d}"]]],
    ["python3 - <<'EOF' | sh\nprint(1)\nEOF\ncat z", [["python3", "-", "<<print(1)"], ["sh"], ["cat", "z"]]],
    ['for f in a b; do cat "$f"; done', [["cat", "$…"]]],
    [
      "case $x in a) cat a;; *) cat b;; esac",
      [
        ["cat", "a"],
        ["cat", "b"],
      ],
    ],
    [
      "[[ -f x && $y < z ]] && diff <(cat p) q",
      [
        ["diff", "/dev/fd/63", "q"],
        ["cat", "p"],
      ],
    ],
  ])("%s", (command, expected) => {
    expect(wordsOf(command).sort()).toEqual(expected.sort());
  });

  it("reads what a command names, with the shell's folder and variables", () => {
    // xargs takes its words from the here-string; grep -r names no existing folder, so it reads the working folder.
    const reads = readsOfCommand("cd src && F=../.env; cat $F | xargs grep -r x <<< 'docs'", { cwd: "/r", home: "/h" });
    expect(reads.map((read) => `${read.kind}:${"path" in read ? read.path : "prefix" in read ? read.prefix : ""}`)).toEqual([
      "path:/r/src",
      "path:/r/.env",
      "path:/r/.env",
      "path:/r/src/x",
      "path:/r/src/docs",
      "tree:/r/src",
    ]);
  });

  it("finds the paths inside an argument", () => {
    expect(embeddedPaths("--in=secrets/key.pem")).toEqual(["secrets/key.pem"]);
    expect(embeddedPaths("-fMakefile.sealed")).toEqual(["Makefile.sealed"]);
    expect(embeddedPaths("x=@secrets/a;type=text/plain")).toEqual(["x=@secrets/a;type=text/plain", "@secrets/a;type=text/plain", "secrets/a"]);
    expect(embeddedPaths("if=secrets/a")).toEqual(["if=secrets/a", "secrets/a"]);
    expect(embeddedPaths("file://localhost/r/secr%65ts/a")).toEqual(["file://localhost/r/secr%65ts/a", "/r/secrets/a"]);
  });
});

describe("handoff guard through the CLI registry", () => {
  it("allows when nothing is active and prints nothing", async () => {
    const stdin = new PassThrough();
    stdin.end(JSON.stringify({ tool_name: "Read", tool_input: { file_path: "/etc/hostname" }, cwd: "/" }));
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), stdin, stdinIsTTY: false, env: {}, cwd: "/", color: false, progress: (_message, work) => work };
    expect(await main(["guard"], io)).toBe(0);
    expect([...out, ...err]).toEqual([]);
  });
});
