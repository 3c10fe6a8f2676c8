import { execFileSync } from "node:child_process";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../client/cli/main.js";
import { commandSegments, pathWords } from "../../client/ops/guard/bash-words.js";
import { fnmatchcase } from "../../client/ops/guard/fnmatch.js";
import type { Io } from "../../client/platform/io.js";

// The guard's parts: fnmatchcase against Python's own (the reference guard's matcher), the
// shell-word splitter on table cases, and the registry path through main().

const FNMATCH_CASES: [string, string][] = [
  ["secrets/key.pem", "secrets/*"],
  ["secrets/a/b/key.pem", "secrets/*"],
  ["keys/a.pem", "*.pem"],
  ["a.pem", "*.pem"],
  ["a.pem.bak", "*.pem"],
  ["src/a.ts", "src/?.ts"],
  ["src/ab.ts", "src/?.ts"],
  ["src/b.ts", "src/[abc].ts"],
  ["src/d.ts", "src/[!abc].ts"],
  ["src/d.ts", "src/[a-c].ts"],
  ["src/[.ts", "src/[.ts"],
  ["", "*"],
  ["abc", ""],
  ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "*a*a*a*a*a*a*a*a*c"],
  [".env", ".env"],
  ["env", ".env"],
];

describe("fnmatchcase", () => {
  it("agrees with Python's fnmatch.fnmatchcase", () => {
    const python = JSON.parse(
      execFileSync("python3", ["-c", "import fnmatch, json, sys; print(json.dumps([fnmatch.fnmatchcase(n, p) for n, p in json.load(sys.stdin)]))"], { input: JSON.stringify(FNMATCH_CASES), encoding: "utf8" }),
    ) as boolean[];
    expect(FNMATCH_CASES.map(([name, pattern]) => fnmatchcase(name, pattern))).toEqual(python);
    expect(python.filter(Boolean).length).toBeGreaterThan(4);
  });
});

describe("shell words", () => {
  it.each([
    ["cat secrets/key.pem | head -5", [["cat", "secrets/key.pem"], ["head", "-5"]]],
    [`sed -n 1p "my dir/a b.txt" 'x y'`, [["sed", "-n", "1p", "my dir/a b.txt", "x y"]]],
    ["grep -r x . > out.txt 2>err.log", [["grep", "-r", "x", ".", "out.txt", "2", "err.log"]]],
    ["cd src && ls; echo done # cat secrets/key.pem", [["cd", "src"], ["ls"], ["echo", "done"]]],
    ["a\\ b c\\\nd", [["a b", "cd"]]],
    ['echo "a \\"quoted\\" word"', [["echo", 'a "quoted" word']]],
    ["(cat x)\ncat y", [["cat", "x"], ["cat", "y"]]],
  ])("%s", (command, segments) => {
    expect(commandSegments(command)).toEqual(segments);
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
