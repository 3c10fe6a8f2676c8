import { lstatSync } from "node:fs";
import { join } from "node:path";
import { CHANGES_LIMITS, type ChangesBundle, concatBytes, splitPatch } from "../../../shared/changes/bundle.js";
import type { BundleMode as Mode } from "../../../shared/changes/path.js";
import { parsePatch } from "../../../shared/changes/patch.js";
import { HandoffError } from "../../../shared/errors.js";
import type { Env } from "../../platform/env.js";
import { runGit } from "../../platform/git.js";
import { readRegularFile } from "../../platform/read-file.js";
import { judgeChangedFile, judgeNewFile, shownPath, unscannableError } from "./scan-changes.js";

export interface CaptureOptions {
  /** --allow-unscanned: send files the secret scan cannot read (archives, binary data) instead of refusing. */
  allowUnscanned?: boolean;
}

/** A bundle, and the files in it the scan could not read (sent because the sender allowed them). */
export type CapturedChanges = ChangesBundle & { unscanned: { path: string; what: string }[] };

/**
 * Captures a checkout's uncommitted work as a changes bundle, read-only: the tracked changes
 * against HEAD as one binary-safe patch with full blob ids, and the untracked, not-ignored files
 * whole. Every part is scanned for secrets, as it decodes, before anything is kept: a file with a
 * secret is left out and named, never sent; one the scan cannot read is refused unless
 * `options.allowUnscanned`. Over a cap (shared/changes/bundle.ts CHANGES_LIMITS) capture stops
 * with an error that says which and what to do, and nothing is written.
 *
 * `excluded` is asked about every path before it is read (an absolute path in, why it may not
 * travel out): under a sealed manifest the front end passes the guard's decision, so a forbidden
 * file is left out and named, never read or sent.
 */
export async function captureChanges(toplevel: string, env: Env, excluded?: (path: string) => string | undefined, options: CaptureOptions = {}): Promise<CapturedChanges> {
  const git = async (args: string[]) => {
    const run = await runGit(args, { cwd: toplevel, env, maxBytes: 64 * 1024 * 1024 });
    if (run.failure !== undefined)
      throw new HandoffError("io_failed", `git ${args.find((a) => !a.startsWith("-"))} failed while capturing the changes: ${run.failure}`, { hint: "check the repository; nothing was written" });
    return run.stdout;
  };
  const head = (await git(["rev-parse", "--verify", "HEAD"])).trim();
  const branch = (await runGit(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: toplevel, env })).stdout.trim();
  // The one git runner switches off the repository's filter drivers on every diff itself.
  const diffArgs = ["-c", "core.quotePath=false", "diff", "--no-renames", "--no-textconv", "--no-ext-diff", "--no-color", "HEAD"];
  const tracked = (await git([...diffArgs, "--name-only", "-z"])).split("\0").filter(Boolean);
  const untracked = (await git(["ls-files", "--others", "--exclude-standard", "-z"])).split("\0").filter(Boolean);
  if (tracked.length + untracked.length > CHANGES_LIMITS.files) {
    throw new HandoffError(
      "too_large",
      `--with-changes: ${tracked.length} changed tracked and ${untracked.length} untracked files, more than the ${CHANGES_LIMITS.files} a changes bundle carries; nothing was written`,
      {
        hint: "commit or stash some of the work (or add build output to .gitignore), or leave out --with-changes",
      },
    );
  }
  // A path the caller excludes is left out of the diff itself, so git never prints its contents.
  const refused = new Map(tracked.map((path) => [path, excluded?.(join(toplevel, path))] as const).filter((e): e is [string, string] => e[1] !== undefined));
  const wanted = tracked.filter((path) => !refused.has(path));
  const pathspec = refused.size === 0 ? [] : ["--", ...wanted.map((path) => `:(literal)${path}`)];
  const patchRun =
    wanted.length === 0
      ? { code: 0, stdout: Buffer.alloc(0) }
      : await runGit([...diffArgs, "--binary", "--full-index", ...pathspec], { cwd: toplevel, env, maxBytes: CHANGES_LIMITS.totalBytes * 8, binary: true });
  if (patchRun.overflow) throw overCap("the tracked changes' patch");
  if (patchRun.failure !== undefined) throw new HandoffError("io_failed", `git diff failed while capturing the changes: ${patchRun.failure}`, { hint: "check the repository; nothing was written" });
  const parts = splitPatch(patchRun.stdout, wanted);

  const left_out: ChangesBundle["manifest"]["left_out"] = [...refused].map(([path, reason]) => ({ path, reason }));
  const kept: { path: string; part: Uint8Array; binary: boolean; from_mode: Mode | null; to_mode: Mode | null }[] = [];
  // The secret scan's verdicts (scan-changes.ts): a secret leaves a file out; what it cannot read
  // is refused after every file was looked at, unless the sender allowed it.
  const unscannable: { path: string; what: string }[] = [];
  const unscanned: { path: string; what: string }[] = [];
  const judged = (path: string, verdict: Awaited<ReturnType<typeof judgeNewFile>>): boolean => {
    if (verdict.secret) left_out.push({ path, reason: verdict.secret });
    else if (verdict.unscannable) (options.allowUnscanned ? unscanned : unscannable).push({ path, what: verdict.unscannable });
    return verdict.secret === undefined && (verdict.unscannable === undefined || options.allowUnscanned === true);
  };
  for (const [i, path] of wanted.entries()) {
    const part = parts[i];
    if (part === undefined) {
      left_out.push({ path, reason: "git wrote its name in a form this client does not split (quoted); commit it or rename it" });
      continue;
    }
    // The receiver holds the patch to the modes the manifest states (format 2): read them as it will.
    const parsed = parsePatch(part);
    const entry = "entries" in parsed && parsed.entries.length === 1 ? parsed.entries[0] : undefined;
    if (entry === undefined) {
      left_out.push({ path, reason: `not carried: ${"problem" in parsed ? parsed.problem.why : "its part of the patch is not one file"}` });
      continue;
    }
    const binary = entry.binary;
    // A binary patch is base85: its sides are rebuilt and scanned, the working file anchoring a
    // delta; a side that cannot be rebuilt is unscannable (fail closed).
    const current = binary ? workingBytes(toplevel, path) : undefined;
    if (judged(path, await judgeChangedFile(path, part, current === "unscannable" ? undefined : current))) {
      kept.push({ path, part, binary, from_mode: entry.from_mode, to_mode: entry.to_mode });
    }
  }

  const files: { path: string; mode: "100644" | "100755"; bytes: Uint8Array }[] = [];
  for (const path of untracked) {
    const full = join(toplevel, path);
    const forbidden = excluded?.(full);
    if (forbidden !== undefined) {
      left_out.push({ path, reason: forbidden });
      continue;
    }
    const stat = lstatSync(full, { throwIfNoEntry: false });
    if (!stat?.isFile()) {
      left_out.push({ path, reason: stat?.isSymbolicLink() ? "a symbolic link (not carried)" : "not a regular file" });
      continue;
    }
    if (stat.size > CHANGES_LIMITS.fileBytes) {
      left_out.push({ path, reason: `${stat.size} bytes, over the ${CHANGES_LIMITS.fileBytes / 1024} KiB a bundled file may have` });
      continue;
    }
    const bytes = readRegularFile(full, CHANGES_LIMITS.fileBytes, { what: "an untracked file", noFollow: true });
    if (bytes === "too_large") {
      left_out.push({ path, reason: `over the ${CHANGES_LIMITS.fileBytes / 1024} KiB a bundled file may have` });
      continue;
    }
    if (judged(path, await judgeNewFile(path, bytes))) files.push({ path, mode: stat.mode & 0o111 ? "100755" : "100644", bytes });
  }
  if (unscannable.length > 0) throw unscannableError(unscannable);

  const patch = concatBytes(kept.map((k) => k.part));
  const total = patch.length + files.reduce((n, f) => n + f.bytes.length, 0);
  if (total > CHANGES_LIMITS.totalBytes) throw overCap(`the changes (${total} bytes)`);
  return {
    manifest: {
      base: { head, ...(branch ? { branch } : {}) },
      patch_length: patch.length,
      tracked: kept.map((k) => ({ path: k.path, bytes: k.part.length, binary: k.binary, from_mode: k.from_mode, to_mode: k.to_mode })),
      files: files.map((f) => ({ path: f.path, mode: f.mode, length: f.bytes.length })),
      left_out: left_out.map((file) => ({ ...file, path: shownPath(file.path) })),
    },
    patch,
    files: files.map((f) => f.bytes),
    unscanned,
  };
}

/** A changed file's bytes; undefined when it was deleted (the patch then carries nothing new of it). */
function workingBytes(toplevel: string, path: string): Uint8Array | undefined | "unscannable" {
  const full = join(toplevel, path);
  if (lstatSync(full, { throwIfNoEntry: false }) === undefined) return undefined;
  try {
    const bytes = readRegularFile(full, CHANGES_LIMITS.totalBytes * 8, { what: "a changed file", noFollow: true });
    return bytes === "too_large" ? "unscannable" : bytes;
  } catch {
    return "unscannable";
  }
}

function overCap(what: string): HandoffError {
  return new HandoffError("too_large", `--with-changes: ${what} come to more than the ${CHANGES_LIMITS.totalBytes / 1024} KiB a changes bundle carries; nothing was written`, {
    hint: "commit the large files (or ignore build output), or leave out --with-changes",
  });
}
