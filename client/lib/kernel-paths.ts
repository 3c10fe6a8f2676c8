import { realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { formatJsonPath } from "../../shared/kernel/json-path.js";
import { contractPaths } from "../../shared/kernel/rules.js";
import type { Env } from "../platform/env.js";
import { runGitSync } from "../platform/git.js";

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
    const resolved = resolveExisting(join(root, field.path));
    const rel = relative(root, resolved);
    if (rel.startsWith("..") || isAbsolute(rel)) issues.push({ path: formatJsonPath(field.at), message: "resolves outside the repository (through a symlink)" });
  }
  return issues;
}

function repositoryRoot(cwd: string, env: Env): string {
  const run = runGitSync(["rev-parse", "--show-toplevel"], { cwd, env });
  return realpathSync(run.code === 0 ? run.stdout.trim() : cwd);
}

/** realpath of the longest existing prefix, with the rest appended (like Python's realpath). */
export function resolveExisting(path: string): string {
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail.reverse());
    } catch {
      const parent = join(head, "..");
      if (parent === head) return path;
      tail.push(relative(parent, head));
      head = parent;
    }
  }
}

/**
 * Refuses a state or kernel folder (`_meta/`, `_meta/handoffs/`) that leads outside the repository
 * through a symlink, before anything is created in it: a symlinked `_meta/` would put the write
 * (or the guard's pointer) wherever it points. Selectors and pins refuse such symlinks already.
 */
export function assertInsideRepository(dir: string, toplevel: string): void {
  const root = resolveExisting(toplevel);
  const real = resolveExisting(dir);
  const rel = relative(root, real);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) return;
  throw new HandoffError("unsafe_store", `${dir} resolves to ${real}, outside the repository ${root} (a symlink); nothing was written`, {
    hint: "replace the symlink with a real folder, or pass --to to write elsewhere on purpose",
  });
}
