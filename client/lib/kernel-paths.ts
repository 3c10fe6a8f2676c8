import { join } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { formatJsonPath } from "../../shared/kernel/json-path.js";
import { contractPaths } from "../../shared/kernel/rules.js";
import type { Env } from "../platform/env.js";
import { partialRealpath, repoRelative } from "../platform/paths.js";
import { workTreeRootOrSelf } from "../platform/work-tree.js";

/**
 * The one part of kernel's contract that needs the disk: a manifest path must not lead outside
 * the repository through a symlink. As the reference does, paths resolve against the git
 * toplevel of the working directory (else the directory itself); a path that does not exist
 * resolves as far as it does.
 */
export function symlinkEscapes(value: unknown, cwd: string, env: Env): { path: string; message: string }[] {
  const fields = contractPaths(value);
  if (fields.length === 0) return [];
  const root = workTreeRootOrSelf(cwd, env);
  const issues: { path: string; message: string }[] = [];
  for (const field of fields) {
    if (repoRelative(root, partialRealpath(join(root, field.path))) === undefined) issues.push({ path: formatJsonPath(field.at), message: "resolves outside the repository (through a symlink)" });
  }
  return issues;
}

/**
 * Refuses a state or kernel folder (`_meta/`, `_meta/handoffs/`) that leads outside the repository
 * through a symlink, before anything is created in it: a symlinked `_meta/` would put the write
 * (or the guard's pointer) wherever it points. Selectors and pins refuse such symlinks already.
 */
export function assertInsideRepository(dir: string, toplevel: string): void {
  const root = partialRealpath(toplevel);
  const real = partialRealpath(dir);
  if (repoRelative(root, real) !== undefined) return;
  throw new HandoffError("unsafe_store", `${dir} resolves to ${real}, outside the repository ${root} (a symlink); nothing was written`, {
    hint: "replace the symlink with a real folder, or pass --to to write elsewhere on purpose",
  });
}
