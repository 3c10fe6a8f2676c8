import { execFileSync } from "node:child_process";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../client/cli/main.js";
import { parseCommand, pathWords } from "../../client/ops/guard/bash-words.js";
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
    ["grep -r x . > out.txt 2>err.log", [["grep", "-r", "x", ".", "out.txt", "2", "err.log"]]],
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
  ])("%s", (command, segments) => {
    expect(parseCommand(command).map((segment) => segment.words)).toEqual(segments);
  });

  it("keeps values that may be paths and drops bare flags and fd numbers", () => {
    expect(pathWords(["openssl", "--in=secrets/key.pem", "-r", "FILE=a.txt", "2", "out"])).toEqual(["openssl", "secrets/key.pem", "a.txt", "out"]);
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
