import { basename, resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import { buildCheckpoint, phaseSteps } from "../../../shared/kernel/build-checkpoint.js";
import type { KernelCheckpoint } from "../../../shared/kernel/checkpoint.js";
import type { KernelHandoff } from "../../../shared/kernel/schema.js";
import { kernelTarget, makeKernelDir } from "../../lib/kernel-target.js";
import { readManifestFile, validatedManifest } from "../../lib/manifest-file.js";
import { captureGit, dirtyTreeSha256 } from "../../lib/git.js";
import { writeExclusive } from "../../lib/store.js";
import { kernelTimestamp } from "../../../shared/time/timestamps.js";
import type { Env } from "../../platform/env.js";
import { partialRealpath, repoRelative } from "../../platform/paths.js";

/**
 * `handoff checkpoint`: records resumed work as a kernel.checkpoint/v1 (the reference's
 * `latest` looks for them in _meta/checkpoints/). Reads git, never changes it; writes one new
 * file, never over an existing one.
 */

export const CHECKPOINT_DIR = "_meta/checkpoints";

export interface CheckpointOptions {
  /** The kernel.handoff/v1 this work resumed from: its goal, phases and context carry over. */
  from?: string;
  name?: string;
  goal?: string;
  position: string;
  next: string;
  entrypoint?: string;
  /** Steps finished since the handoff, each with its verification. */
  done: { step: string; evidence: string }[];
  pending: string[];
  outputs: string[];
  to?: string;
  cwd: string;
  env: Env;
  now?: () => Date;
}

export interface CheckpointResult {
  path: string;
  format: "kernel.checkpoint/v1";
  checkpoint: KernelCheckpoint;
  warnings: string[];
}

export async function writeCheckpoint(options: CheckpointOptions): Promise<CheckpointResult> {
  const git = await captureGit(options.cwd, options.env);
  if (!git || git.head === undefined) {
    throw new HandoffError("usage", "a checkpoint records git provenance (branch and commit), and there is none here", {
      hint: git ? "make a first commit" : "run it inside the git repository of the resumed work",
    });
  }
  let parent: KernelHandoff | undefined;
  let handoffRef: string | undefined;
  if (options.from !== undefined) {
    parent = validatedManifest(options.from, await readManifestFile(options.from, { cwd: options.cwd }));
    handoffRef = inRepository(git.toplevel, resolve(options.cwd, options.from));
  }
  const goal = options.goal ?? parent?.objective.goal;
  if (goal === undefined || goal.trim() === "") {
    throw new HandoffError("usage", "a checkpoint needs the task's goal", { hint: "pass --goal G, or --from MANIFEST to take the resumed handoff's goal" });
  }
  const fromPhases = parent && handoffRef ? phaseSteps(parent, handoffRef) : { done: [], pending: [] };
  const done = [...fromPhases.done, ...options.done];
  const now = options.now?.() ?? new Date();
  const dirty = git.dirty > 0;
  const name = options.name ?? parent?.identity.name ?? basename(git.toplevel);
  const checkpoint = buildCheckpoint({
    name,
    created: kernelTimestamp(now),
    provenance: { branch: git.branch ?? "HEAD", commit: git.head, dirty, ...(dirty ? { dirty_tree_sha256: await dirtyTreeSha256(git.toplevel, options.env) } : {}) },
    goal,
    ...(handoffRef ? { handoffRef } : {}),
    ...(parent?.contract?.ref ? { contractRef: parent.contract.ref } : {}),
    done,
    pending: [...fromPhases.pending, ...options.pending],
    outputs: options.outputs,
    position: options.position,
    next: options.next,
    ...(options.entrypoint ? { entrypoint: options.entrypoint } : parent?.execution.entrypoint ? { entrypoint: parent.execution.entrypoint } : {}),
    ...(parent ? { parent } : {}),
  });
  const target = kernelTarget(options, git.toplevel, CHECKPOINT_DIR, name, now);
  if (options.to === undefined) makeKernelDir(target.dir, git.toplevel);
  const written = writeExclusive(target.dir, target.stem, target.ext, new TextEncoder().encode(`${JSON.stringify(checkpoint, null, 2)}\n`));
  const warnings: string[] = [];
  if (written.takenName) warnings.push(`${written.takenName} already exists: wrote ${written.path} instead (nothing is overwritten)`);
  if (dirty) warnings.push(`the checkout has ${git.dirty} uncommitted change${git.dirty === 1 ? "" : "s"}: the checkpoint pins them by dirty_tree_sha256, but only this machine has them`);
  return { path: written.path, format: "kernel.checkpoint/v1", checkpoint, warnings };
}

/** `--done STEP=EVIDENCE` (split at the first '='). */
export function parseDone(value: string): { step: string; evidence: string } {
  const eq = value.indexOf("=");
  const step = eq < 0 ? value.trim() : value.slice(0, eq).trim();
  const evidence = eq < 0 ? "" : value.slice(eq + 1).trim();
  if (step === "" || evidence === "") {
    throw new HandoffError("usage", `--done '${value}' needs STEP=EVIDENCE`, {
      hint: "evidence is verification, not intent: a command's result, a commit, a passing test, e.g. --done 'tests=npm test: 42 passed'",
    });
  }
  return { step, evidence };
}

/** Repository-relative where the file really is (a symlink counts where it leads), else as given. */
function inRepository(toplevel: string, path: string): string {
  return repoRelative(partialRealpath(toplevel), partialRealpath(path)) ?? path;
}
