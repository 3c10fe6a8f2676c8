import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ChangesBundle } from "../../../shared/changes/bundle.js";
import { HandoffError } from "../../../shared/errors.js";
import type { Env } from "../../platform/env.js";
import { runGit } from "../../platform/git.js";
import { workTreeRoot } from "../../platform/work-tree.js";

/**
 * `resume --apply-changes`: puts a changes bundle into this checkout, only when asked, and only
 * where it lands whole. Checked first, nothing written until every check passed:
 * - the checkout has no uncommitted tracked changes, and no file the bundle would create exists;
 * - HEAD is the bundle's recorded commit (plain `git apply --index`), or a descendant of it
 *   (`git apply --3way`, rehearsed first on a temporary index, so a conflict is reported with
 *   its paths and the checkout is left untouched).
 * git's own apply machinery does the work, through the one git runner.
 */

export interface AppliedChanges {
  /** "at_base": HEAD was the recorded commit; "three_way": a descendant, merged with git apply --3way. */
  mode: "at_base" | "three_way";
  base: string;
  head: string;
  tracked: string[];
  untracked: string[];
  /** Named by the sender as not captured (a secret, too large): not here either. */
  left_out: { path: string; reason: string }[];
}

export async function applyChanges(bundle: ChangesBundle, cwd: string, env: Env): Promise<AppliedChanges> {
  const toplevel = workTreeRoot(cwd, env);
  if (toplevel === undefined) throw refuse("this folder is not inside a git repository", "run it in the checkout the handoff is about");
  const git = (args: string[], extraEnv: Record<string, string> = {}) => runGit(args, { cwd: toplevel, env: { ...env, ...extraEnv } });
  const head = (await git(["rev-parse", "--verify", "HEAD"])).stdout.trim();
  const base = bundle.manifest.base.head;
  const short = base.slice(0, 12);

  const status = await git(["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  if (status.failure !== undefined) throw new HandoffError("io_failed", `git status failed: ${status.failure}`, { hint: "check the repository; nothing was applied" });
  const entries = status.stdout.split("\0").filter(Boolean);
  const changed = entries.filter((e) => !e.startsWith("?? ")).map((e) => e.slice(3));
  if (changed.length > 0) {
    throw refuse(`this checkout has uncommitted changes (${list(changed)})`, "commit or stash them first, then apply again (git stash)", { uncommitted: changed });
  }
  const untracked = new Set(entries.filter((e) => e.startsWith("?? ")).map((e) => e.slice(3)));
  // A file the bundle creates must not exist; a path the patch adds must not sit here untracked.
  const collisions = [
    ...bundle.manifest.files.map((f) => f.path).filter((p) => lstatSync(join(toplevel, p), { throwIfNoEntry: false }) !== undefined),
    ...bundle.manifest.tracked.map((t) => t.path).filter((p) => untracked.has(p)),
  ];
  if (collisions.length > 0) throw refuse(`files the bundle would create already exist here (${list(collisions)})`, "move them away, then apply again", { conflicts: collisions });

  let mode: AppliedChanges["mode"];
  if (head === base) mode = "at_base";
  else if ((await git(["cat-file", "-e", `${base}^{commit}`])).code !== 0) {
    throw refuse(`the bundle was captured at commit ${short}, which this clone does not have`, "fetch it (git fetch), check it out or a descendant of it, then apply again");
  } else if ((await git(["merge-base", "--is-ancestor", base, "HEAD"])).code === 0) mode = "three_way";
  else
    throw refuse(
      `HEAD ${head.slice(0, 12)} is neither the bundle's commit ${short} nor a descendant of it`,
      `check out ${short} or a branch that contains it (git switch --detach ${short}), then apply again`,
    );

  const scratch = mkdtempSync(join(tmpdir(), "handoff-apply-"));
  const written: string[] = [];
  try {
    const patch = join(scratch, "changes.patch");
    writeFileSync(patch, bundle.patch, { mode: 0o600 });
    const hasPatch = bundle.patch.length > 0;
    if (hasPatch) {
      if (mode === "at_base") {
        const check = await git(["apply", "--check", "--index", "--binary", patch]);
        if (check.code !== 0) throw refuse(`the patch does not apply to ${short}: ${check.failure ?? "git apply refused it"}`, "nothing was applied; ask the sender to capture it again");
      } else {
        // The rehearsal: the same three-way apply on a temporary index, which leaves conflicts at
        // higher stages there, never in this checkout.
        const index = { GIT_INDEX_FILE: join(scratch, "index") };
        await git(["read-tree", "HEAD"], index);
        const rehearsal = await git(["apply", "--cached", "--3way", "--binary", patch], index);
        if (rehearsal.code !== 0) {
          const unmerged = await git(["ls-files", "-u", "-z"], index);
          const conflicts = [
            ...new Set(
              unmerged.stdout
                .split("\0")
                .filter(Boolean)
                .map((line) => line.slice(line.indexOf("\t") + 1)),
            ),
          ];
          throw refuse(
            conflicts.length > 0
              ? `the changes conflict with this checkout in ${list(conflicts)}`
              : `the changes do not apply onto HEAD ${head.slice(0, 12)}: ${rehearsal.failure ?? "git apply --3way refused them"}`,
            `nothing was applied; check out ${short} (the commit they were captured at) and apply there, or resolve by hand`,
            { conflicts },
          );
        }
      }
    }
    // Untracked files first (exclusive creates, undone on any failure), then the rehearsed patch.
    bundle.manifest.files.forEach((file, i) => {
      const full = join(toplevel, file.path);
      ensureParents(toplevel, dirname(file.path));
      const fd = openSync(full, "wx", file.mode === "100755" ? 0o755 : 0o644);
      written.push(full);
      try {
        writeSync(fd, bundle.files[i] ?? new Uint8Array(0));
      } finally {
        closeSync(fd);
      }
    });
    if (hasPatch) {
      const run = await git(mode === "at_base" ? ["apply", "--index", "--binary", patch] : ["apply", "--3way", "--binary", patch]);
      if (run.code !== 0) throw new HandoffError("io_failed", `git apply failed after its check passed: ${run.failure ?? "unknown"}`, { hint: "nothing was applied; check the checkout and retry" });
    }
    written.length = 0;
  } finally {
    for (const file of written) unlinkSync(file);
    rmSync(scratch, { recursive: true, force: true });
  }
  return { mode, base, head, tracked: bundle.manifest.tracked.map((t) => t.path), untracked: bundle.manifest.files.map((f) => f.path), left_out: bundle.manifest.left_out };
}

/** Creates the folders a file needs, refusing to write through a symbolic link on the way. */
function ensureParents(toplevel: string, relative: string): void {
  if (relative === "." || relative === "") return;
  let at = toplevel;
  for (const segment of relative.split("/")) {
    at = join(at, segment);
    const stat = lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) mkdirSync(at, { mode: 0o755 });
    else if (!stat.isDirectory()) throw refuse(`${at} is not a folder (a symbolic link or a file)`, "move it away, then apply again");
  }
}

function refuse(why: string, hint: string, details?: Record<string, unknown>): HandoffError {
  return new HandoffError("diverged", `--apply-changes: ${why}; nothing was applied`, { hint, ...(details ? { details } : {}) });
}

function list(paths: string[]): string {
  return paths.length <= 5 ? paths.join(", ") : `${paths.slice(0, 5).join(", ")} and ${paths.length - 5} more`;
}
