import { realpathSync } from "node:fs";
import { join } from "node:path";
import { formatJsonPath } from "../../shared/kernel/json-path.js";
import { contractPaths } from "../../shared/kernel/rules.js";
import type { Env } from "../platform/env.js";
import { runGitSync } from "../platform/git.js";
import { partialRealpath, repoRelative } from "../platform/paths.js";

/**
 * The one part of kernel's contract that needs the disk: a manifest path must not lead outside
 * the repository through a symlink. As the reference does, paths resolve against the git
 * toplevel of the working directory (else the directory itself); a path that does not exist
 * resolves as far as it does.
 */
export function symlinkEscapes(value: unknown, cwd: string, env: Env): { path: string; message: string }[] {
  const fields = contractPaths(value);
  if (fields.length === 0) return [];
  const root = repositoryRoot(cwd, env);
  const issues: { path: string; message: string }[] = [];
  for (const field of fields) {
    if (repoRelative(root, partialRealpath(join(root, field.path))) === undefined) issues.push({ path: formatJsonPath(field.at), message: "resolves outside the repository (through a symlink)" });
  }
  return issues;
}

function repositoryRoot(cwd: string, env: Env): string {
  const run = runGitSync(["rev-parse", "--show-toplevel"], { cwd, env });
  return realpathSync(run.code === 0 ? run.stdout.trim() : cwd);
}
