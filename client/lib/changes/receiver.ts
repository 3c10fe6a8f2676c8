import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { PlannedChange } from "../../../shared/changes/plan.js";
import type { Env } from "../../platform/env.js";
import { GIT_APPLY_CONFIG, runGit } from "../../platform/git.js";

/**
 * What this checkout says about a bundle's paths, read-only, before anything is applied: the
 * paths git's rules accept (shared/changes/path.ts) must also stay in this working tree as it is
 * laid out here, and a three-way apply must not reach a merge driver the repository configures.
 */

/**
 * The first path that would leave this working tree through its own layout: through a symbolic
 * link or a file on the way, into a folder with its own `.git` (a nested repository or a
 * submodule's checkout, case-insensitively where the volume is), or inside a submodule git tracks
 * (a gitlink), checked out or not.
 */
export async function containmentProblem(toplevel: string, files: PlannedChange[], env: Env): Promise<{ path: string; why: string } | undefined> {
  const staged = await runGit(["ls-files", "--stage", "-z"], { cwd: toplevel, env });
  const gitlinks = staged.stdout
    .split("\0")
    .filter((line) => line.startsWith("160000 "))
    .map((line) => line.slice(line.indexOf("\t") + 1));
  for (const { path } of files) {
    const submodule = gitlinks.find((link) => path === link || path.startsWith(`${link}/`));
    if (submodule !== undefined) return { path, why: `lies inside the submodule ${submodule}` };
    const segments = path.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const prefix = segments.slice(0, depth).join("/");
      const stat = lstatSync(join(toplevel, prefix), { throwIfNoEntry: false });
      if (stat === undefined) break;
      if (stat.isSymbolicLink()) return { path, why: `would be written through the symbolic link ${prefix}` };
      if (!stat.isDirectory()) return { path, why: `lies below ${prefix}, which is a file here` };
      if (lstatSync(join(toplevel, prefix, ".git"), { throwIfNoEntry: false }) !== undefined) return { path, why: `lies inside another repository (${prefix} has its own .git)` };
    }
  }
  return undefined;
}

/**
 * Why a three-way apply of `files` would run a program: a path whose `merge` attribute (or, unset,
 * `merge.default`) names a merge driver this repository's config defines a command for.
 */
export async function mergeDriverProblem(toplevel: string, files: PlannedChange[], env: Env): Promise<string | undefined> {
  const listing = await runGit(["config", "-z", "--get-regexp", "^merge\\."], { cwd: toplevel, env });
  if (listing.code !== 0) return undefined;
  const drivers = new Set<string>();
  let fallback: string | undefined;
  for (const entry of listing.stdout.split("\0")) {
    const [key = "", value = ""] = entry.split("\n");
    if (key === "merge.default") fallback = value;
    const driver = /^merge\.(.+)\.driver$/.exec(key)?.[1];
    if (driver !== undefined) drivers.add(driver);
  }
  if (drivers.size === 0) return undefined;
  const merged = files.filter((f) => !f.untracked && f.change === "modified").map((f) => f.path);
  if (merged.length === 0) return undefined;
  const attrs = await runGit([...GIT_APPLY_CONFIG, "check-attr", "-z", "merge", "--", ...merged], { cwd: toplevel, env });
  if (attrs.code !== 0) return `the merge attributes of its files cannot be read (${attrs.failure ?? "git check-attr failed"}), and a merge driver may be configured`;
  const fields = attrs.stdout.split("\0");
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [path = "", , value = ""] = fields.slice(i, i + 3);
    const name = value === "unspecified" ? fallback : value === "set" || value === "unset" ? undefined : value;
    if (name !== undefined && drivers.has(name)) return `a three-way apply would run the merge driver '${name}' this repository configures for ${path}`;
  }
  return undefined;
}
