import { describe, expect, it } from "vitest";
import { flagsFor } from "../../../shared/changes/plan.js";

describe("flagsFor: what tools obey or run", () => {
  it.each([
    [".envrc", "100644", ["direnv runs it when a shell enters the folder"]],
    ["app/.npmrc", "100644", ["the package manager reads it (package sources, scripts)"]],
    [".github/workflows/ci.yml", "100644", ["GitHub Actions runs it"]],
    [".vscode/tasks.json", "100644", ["VS Code runs or reads it"]],
    [".claude/settings.json", "100644", ["Claude Code reads it (settings, hooks, commands)"]],
    [".gitattributes", "100644", ["git reads it (filters, merge drivers)"]],
    [".husky/pre-commit", "100755", ["executable", "a git hook manager runs it"]],
    ["scripts/build.sh", "100755", ["executable"]],
    [".prettierrc", "100644", ["a dotfile or dot-folder: tools may read or run it"]],
    ["src/app.ts", "100644", []],
    ["src/app.ts", null, []],
  ] as const)("%s (%s)", (path, mode, flags) => {
    expect(flagsFor({ path, to_mode: mode })).toEqual(flags);
  });

  it("flags files under the receiver's core.hooksPath", () => {
    expect(flagsFor({ path: "tools/hooks/pre-push", to_mode: "100644" }, "tools/hooks")).toEqual(["a git hook (this checkout's core.hooksPath)"]);
    expect(flagsFor({ path: "l", to_mode: "120000", link_target: "x" })).toEqual(["a symbolic link to 'x'"]);
  });
});
