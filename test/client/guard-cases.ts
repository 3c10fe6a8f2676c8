/**
 * The guard's bypass table: every way an agent was found to read a sealed file, the everyday
 * reads that were already blocked, and the controls that must stay allowed. Paths are relative
 * to a repository made by guard-bypass.test.ts (`R` in `at` and commands stands for its root).
 * `at` is the event's cwd: "repo" (the default), "sub" (repo/src), "outside" (a folder outside
 * any repository). Kept in its own module so the table can be run against an older build.
 */

export type Where = "repo" | "sub" | "outside";

export interface GuardCase {
  name: string;
  tool: string;
  input: Record<string, unknown>;
  at?: Where;
  /** 2: blocked; 0: allowed. */
  expected: 0 | 2;
  /** New in issue 22 (a bypass that used to be allowed), else a case that already held. */
  bypass?: boolean;
}

const bash = (name: string, command: string, expected: 0 | 2, extra: Partial<GuardCase> = {}): GuardCase => ({ name, tool: "Bash", input: { command, description: name }, expected, ...extra });

export const LONG_NAME = "n".repeat(256);

export const GUARD_CASES: GuardCase[] = [
  // Exceptions used to exit 1, which Claude Code treats as "run it".
  bash("grep -r through a file used as a folder (ENOTDIR)", "grep -r prod README.md/x .", 2, { bypass: true }),
  bash("grep -r through a symlink loop (ELOOP)", "grep -r prod loop/x", 2, { bypass: true }),
  bash("grep -r through a 256-character name (ENAMETOOLONG)", `grep -r prod ${LONG_NAME}/x`, 2, { bypass: true }),
  // git commands that print contents.
  // Nothing forbidden is modified here, so `git diff` prints nothing forbidden (issue 35: judged by what it prints).
  bash("git diff with no forbidden file changed", "git diff", 0),
  bash("git show", "git show", 2, { bypass: true }),
  bash("git log -p", "git log -p", 2, { bypass: true }),
  bash("git log --patch", "git log --patch -3", 2, { bypass: true }),
  bash("git stash show -p", "git stash show -p", 2, { bypass: true }),
  bash("git show HEAD:secrets/prod.env", "git show HEAD:secrets/prod.env", 2, { bypass: true }),
  bash("git cat-file -p HEAD:secrets/prod.env", "git cat-file -p HEAD:secrets/prod.env", 2, { bypass: true }),
  bash("git cat-file -p of a blob id", "git cat-file -p 3b18e512dba79e4c8300dd08aeb37f8e728b8dad", 2, { bypass: true }),
  bash("git archive", "git archive HEAD | tar -x -O", 2, { bypass: true }),
  bash("git format-patch --stdout", "git format-patch -1 --stdout", 2, { bypass: true }),
  bash("git -C R show", "git -C R show HEAD", 2, { bypass: true }),
  // The policy of the repository that holds the target, not only the one found from cwd.
  { name: "Read by absolute path after cd /tmp", tool: "Read", input: { file_path: "R/secrets/prod.env" }, at: "outside", expected: 2, bypass: true },
  bash("cat by absolute path from outside the repository", "cat R/secrets/prod.env", 2, { at: "outside", bypass: true }),
  bash("cd into the repository from outside, then cat", "cd R && cat secrets/prod.env", 2, { at: "outside", bypass: true }),
  { name: "Grep of the sealed folder from outside", tool: "Grep", input: { pattern: "x", path: "R/secrets" }, at: "outside", expected: 2, bypass: true },
  bash("cd to a subfolder, then ../secrets", "cd src && cat ../secrets/prod.env", 2, { bypass: true }),
  // Interpreter strings, eval and here-documents.
  bash("bash -c", "bash -c 'cat secrets/prod.env'", 2, { bypass: true }),
  bash("sh -c", 'sh -c "head -1 secrets/prod.env"', 2, { bypass: true }),
  bash("sh -c nested in bash -c", `bash -c "sh -c 'cat secrets/prod.env'"`, 2, { bypass: true }),
  bash("eval", "eval 'cat secrets/prod.env'", 2, { bypass: true }),
  bash("python3 -c", `python3 -c "print(open('secrets/prod.env').read())"`, 2, { bypass: true }),
  bash("python3 -c with os.path.join", `python3 -c "import os; print(open(os.path.join('secrets', 'prod.env')).read())"`, 2, { bypass: true }),
  bash("node -e", `node -e "console.log(require('fs').readFileSync('secrets/prod.env', 'utf8'))"`, 2, { bypass: true }),
  bash("perl -e", `perl -e 'open(F, "<secrets/prod.env"); print <F>'`, 2, { bypass: true }),
  bash("a here-document fed to python3", "python3 - <<'EOF'\nprint(open('secrets/prod.env').read())\nEOF", 2, { bypass: true }),
  bash("a here-document fed to bash", "bash <<EOF\ncat secrets/prod.env\nEOF", 2, { bypass: true }),
  bash("a here-string fed to sh", "sh <<< 'cat secrets/prod.env'", 2, { bypass: true }),
  bash("brace expansion", "cat {secrets,docs}/prod.env", 2, { bypass: true }),
  bash("brace expansion of the folder name", "cat secret{s,}/prod.env", 2, { bypass: true }),
  // Handoff's own MCP tools, now also matched by the plugin's hook.
  { name: "MCP orient of a sealed file", tool: "mcp__handoff__orient", input: { source: "secrets/prod.env" }, expected: 2, bypass: true },
  { name: "MCP publish of a sealed file", tool: "mcp__handoff__publish", input: { path: "secrets/prod.env", expires: "1h" }, expected: 2, bypass: true },
  { name: "MCP validate of a sealed file through a symlink", tool: "mcp__handoff__validate", input: { path: "link/prod.env" }, expected: 2, bypass: true },

  // Already held before issue 22.
  { name: "Read of the sealed file", tool: "Read", input: { file_path: "secrets/prod.env" }, expected: 2 },
  { name: "Read through a symlinked folder", tool: "Read", input: { file_path: "link/prod.env" }, expected: 2 },
  { name: "Glob into the sealed folder", tool: "Glob", input: { pattern: "secrets/*" }, expected: 2 },
  { name: "Grep with no path", tool: "Grep", input: { pattern: "KEY" }, expected: 2 },
  bash("cat", "cat secrets/prod.env", 2),
  bash("sed", "sed -n 1p secrets/prod.env", 2),
  bash("head", "head -c 100 secrets/prod.env", 2),
  bash("awk", "awk '{print}' secrets/prod.env", 2),
  bash("xxd", "xxd secrets/prod.env | head", 2),
  bash("a double-quoted path", 'cat "secrets/prod.env"', 2),
  bash("a backslash-escaped path", "cat secrets\\/prod.env", 2),
  bash("a glob", "cat secr*/prod.*", 2),
  bash("a symlinked folder", "cat link/prod.env", 2),
  bash("cd secrets && cat", "cd secrets && cat prod.env", 2),
  bash("grep -r over the repository", "grep -rn KEY .", 2),
  bash("rg", "rg KEY", 2),
  bash("find -exec", "find . -name '*.env' -exec cat {} +", 2),
  bash("tar", "tar -cf - . | tar -tv", 2),
  bash("git grep", "git grep KEY", 2),
  bash("an absolute path", "cat R/secrets/prod.env", 2),
  bash("a command substitution", "echo $(cat secrets/prod.env)", 2),

  // Allowed controls: ordinary work stays possible.
  { name: "Read of a safe file", tool: "Read", input: { file_path: "docs/notes.md" }, expected: 0 },
  { name: "Read of a safe file from outside", tool: "Read", input: { file_path: "R/docs/notes.md" }, at: "outside", expected: 0 },
  { name: "Grep of a safe folder", tool: "Grep", input: { pattern: "x", path: "src" }, expected: 0 },
  { name: "Glob of a safe folder", tool: "Glob", input: { pattern: "src/**/*.ts" }, expected: 0 },
  { name: "MCP orient of a safe file", tool: "mcp__handoff__orient", input: { source: "docs/notes.md" }, expected: 0 },
  { name: "MCP create with no target", tool: "mcp__handoff__create", input: { body: "# Handoff\n" }, expected: 0 },
  bash("ordinary commands", "git status && ls -la src && npm test", 0),
  bash("git log --oneline", "git log --oneline -5", 0),
  bash("git diff --stat", "git diff --stat", 0),
  bash("git diff of a safe pathspec", "git diff HEAD -- src docs", 0),
  bash("git show of a safe pathspec", "git show HEAD -- src/a.ts", 0),
  bash("git diff excluding the sealed folder", "git diff -- . ':!secrets'", 0),
  bash("git log -p excluding the sealed folder", "git log -p -- . ':(exclude)secrets/**'", 0),
  bash("git cat-file -t", "git cat-file -t HEAD", 0),
  bash("git show of a safe rev:path", "git show HEAD:src/a.ts", 0),
  bash("bash -c of a safe command", "bash -c 'ls src && cat docs/notes.md'", 0),
  bash("python3 -c with no path", `python3 -c "print(1 + 1)"`, 0),
  bash("node -e with a safe path", `node -e "console.log(require('fs').readFileSync('docs/notes.md', 'utf8'))"`, 0),
  bash("a here-document into a safe file", "cat > docs/todo.md <<'EOF'\n- write tests\nEOF", 0),
  bash("brace expansion of safe names", "cat docs/{notes,todo}.md", 0),
  bash("grep -r of a safe folder", "grep -rn TODO src docs", 0),
  bash("cd to a subfolder, then a safe file", "cd src && cat a.ts", 0),
];
