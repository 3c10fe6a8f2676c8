import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { GIT_ENV, makeRepo, tempDir } from "./git-repo.js";

/**
 * Where the guard tests run: a repository with a source file to require (src/a.ts), notes to read
 * (docs/notes.md, with a TODO to grep for), and `secrets` to forbid; a HOME of its own; the env
 * for the built CLI. Made when the test file loads, since its case tables name paths inside it.
 */
export function guardSandbox(prefix: string, secrets: Record<string, string>): { base: string; repo: string; env: Record<string, string> } {
  const base = tempDir(prefix);
  const repo = makeRepo(join(base, "repo"), { "README.md": "# Demo\n", "src/a.ts": "export const a = 1;\n", "docs/notes.md": "# Notes\nTODO\n", ...secrets });
  mkdirSync(join(base, "home"));
  return { base, repo, env: { ...GIT_ENV, HOME: join(base, "home"), TMPDIR: base } };
}
