import { lstatSync } from "node:fs";
import { join } from "node:path";
import { CHANGES_LIMITS, type ChangesBundle, concatBytes, splitPatch } from "../../../shared/changes/bundle.js";
import type { BundleMode as Mode } from "../../../shared/changes/path.js";
import { parsePatch } from "../../../shared/changes/patch.js";
import { HandoffError } from "../../../shared/errors.js";
import { scanText } from "../../../shared/redact/index.js";
import type { Env } from "../../platform/env.js";
import { runGit } from "../../platform/git.js";
import { readRegularFile } from "../../platform/read-file.js";

/**
 * Captures a checkout's uncommitted work as a changes bundle, read-only: the tracked changes
 * against HEAD as one binary-safe patch with full blob ids, and the untracked, not-ignored files
 * whole. Every part is scanned for secrets before anything is kept: a file with a secret is left
 * out and named, never sent. Over a cap (shared/changes/bundle.ts CHANGES_LIMITS) capture stops
 * with an error that says which and what to do, and nothing is written.
 *
 * `excluded` is asked about every path before it is read (an absolute path in, why it may not
 * travel out): under a sealed manifest the front end passes the guard's decision, so a forbidden
 * file is left out and named, never read or sent.
 */
export async function captureChanges(toplevel: string, env: Env, excluded?: (path: string) => string | undefined): Promise<ChangesBundle> {
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
    // A binary patch is base85: scan the file itself (what the patch rebuilds) instead; one that
    // exists but cannot be read to scan is not sent (fail closed).
    const scanned = binary ? workingBytes(toplevel, path) : part;
    const secret = scanned === "unscannable" ? "a binary file that could not be read to scan for secrets: left out, never sent" : secretIn(scanned);
    if (secret) left_out.push({ path, reason: secret });
    else kept.push({ path, part, binary, from_mode: entry.from_mode, to_mode: entry.to_mode });
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
    const secret = secretIn(bytes);
    if (secret) {
      left_out.push({ path, reason: secret });
      continue;
    }
    files.push({ path, mode: stat.mode & 0o111 ? "100755" : "100644", bytes });
  }

  const patch = concatBytes(kept.map((k) => k.part));
  const total = patch.length + files.reduce((n, f) => n + f.bytes.length, 0);
  if (total > CHANGES_LIMITS.totalBytes) throw overCap(`the changes (${total} bytes)`);
  return {
    manifest: {
      base: { head, ...(branch ? { branch } : {}) },
      patch_length: patch.length,
      tracked: kept.map((k) => ({ path: k.path, bytes: k.part.length, binary: k.binary, from_mode: k.from_mode, to_mode: k.to_mode })),
      files: files.map((f) => ({ path: f.path, mode: f.mode, length: f.bytes.length })),
      left_out,
    },
    patch,
    files: files.map((f) => f.bytes),
  };
}

/** Why a file must not travel, when the scan finds a secret in it (rule ids only, never the value). */
function secretIn(bytes: Uint8Array | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  // Latin-1 maps every byte to one character: a secret in ASCII is found in binary files too.
  const report = scanText(new TextDecoder("latin1").decode(bytes));
  if (report.findings.length === 0) return undefined;
  return `holds a secret (${Object.keys(report.counts).sort().join(", ")}): left out, never sent`;
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
