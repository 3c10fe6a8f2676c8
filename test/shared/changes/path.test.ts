import { describe, expect, it } from "vitest";
import { pathProblem, symlinkTarget } from "../../../shared/changes/path.js";

// The table git's own verify_path (protectHFS and protectNTFS on) gives, on every platform.
describe("pathProblem: git's verify_path rules", () => {
  it.each([
    ["README.md"],
    ["src/app.ts"],
    [".github/workflows/ci.yml"],
    [".gitignore"],
    [".gitkeep"],
    ["docs/.git-blame-ignore-revs"],
    ["a/gitx/b"],
    ["git~2/x"],
    [".git-foo"],
    ["notes/ümlaut.txt"],
    ["with space/and-dash"],
    ["..."],
    ["a..b"],
  ])("accepts %s", (path) => {
    expect(pathProblem(path)).toBeUndefined();
  });

  it.each([
    ["", /empty/],
    ["/etc/passwd", /absolute/],
    ["C:evil", /absolute/],
    ["c:/Windows/x", /absolute/],
    ["a\\b", /backslash/],
    ["..\\x", /backslash/],
    ["a\u0000b", /control character \(U\+0000\)/],
    ["a\nb", /control character \(U\+000A\)/],
    ["a\u007fb", /control character \(U\+007F\)/],
    ["a//b", /empty segment/],
    ["a/", /empty segment/],
    ["./a", /'\.' segment/],
    ["a/../../x", /'\.\.' segment/],
    ["..", /'\.\.' segment/],
    [".git/hooks/pre-commit", /spelling of \.git \('\.git'\)/],
    [".GIT/hooks/pre-commit", /spelling of \.git \('\.GIT'\)/],
    [".Git/config", /spelling of \.git/],
    ["sub/.git/config", /spelling of \.git/],
    [".git./hooks/x", /spelling of \.git \('\.git\.'\)/],
    [".git /hooks/x", /spelling of \.git \('\.git '\)/],
    [".git. . /hooks/x", /spelling of \.git/],
    [".git::$INDEX_ALLOCATION/hooks/x", /spelling of \.git/],
    ["GIT~1/hooks/x", /spelling of \.git \('GIT~1'\)/],
    ["git~1./config", /spelling of \.git/],
    [".g\u200cit/hooks/x", /spelling of \.git/],
    [".gi\u200dt/config", /spelling of \.git/],
    ["\u200e.git/config", /spelling of \.git/],
    [".git\u200f/config", /spelling of \.git/],
    [".\u202agit/config", /spelling of \.git/],
    [".g\u202eit/config", /spelling of \.git/],
    [".gi\u2060t/config", /spelling of \.git/],
    [".g\u206fit/config", /spelling of \.git/],
    ["\ufeff.GIT/config", /spelling of \.git/],
  ])("refuses %j", (path, why) => {
    expect(pathProblem(path)).toMatch(why);
  });

  it.each([[".gitmodules"], ["sub/.GitModules"], [".gitmodules ."], ["GITMOD~1"], ["gi7eba~1"], [".gitattributes"], ["gitatt~2"], [".gitignore"], [".mailmap"], [".g\u200citignore"]])(
    "refuses a symbolic link named %j (git never follows one)",
    (path) => {
      expect(pathProblem(path, "120000")).toMatch(/symbolic link named like git's/);
      expect(pathProblem(path, "100644")).toBeUndefined();
    },
  );
});

describe("symlinkTarget: a link stays inside the working tree", () => {
  it.each([
    ["docs/latest", "v2/index.md", "docs/v2/index.md"],
    ["a/b/link", "../c", "a/c"],
    ["link", "./x/./y", "x/y"],
    ["a/link", "..", ""],
  ])("%s -> %s resolves to %j", (path, target, resolved) => {
    expect(symlinkTarget(path, target)).toEqual({ path: resolved });
  });

  it.each([
    ["secrets", "/etc/passwd", /absolute/],
    ["key", "~/.ssh/id_ed25519", /home folder/],
    ["a/b", "../../..", /above the working tree/],
    ["link", "..", /above the working tree/],
    ["hooks", ".git/hooks", /into a \.git folder/],
    ["x", "sub/.GIT/config", /into a \.git folder/],
    ["x", "GIT~1", /into a \.git folder/],
    ["x", "C:\\Windows", /absolute/],
    ["x", "a\\..\\..", /backslash/],
    ["x", "", /empty/],
  ])("%s -> %j is refused", (path, target, why) => {
    const result = symlinkTarget(path, target);
    expect("problem" in result && result.problem).toMatch(why);
  });
});
