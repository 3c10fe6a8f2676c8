import { basename, resolve, sep } from "node:path";
import { continuityWarnings } from "../../../shared/ce/continuity.js";
import { resumeCommand } from "../../../shared/ce/resume-command.js";
import { HandoffError } from "../../../shared/errors.js";
import { buildKernelManifest, type PinnedArtifact } from "../../../shared/kernel/build.js";
import { parseStrictJson } from "../../../shared/kernel/strict-json.js";
import { validateKernelValue } from "../../../shared/kernel/validate.js";
import { writeExclusive } from "../../lib/store.js";
import { oversizedError } from "./size.js";
import { kernelTarget, makeKernelDir } from "../../lib/kernel-target.js";
import { hashPinnedFile, PINNED_FILE_LIMIT } from "../../lib/pinned-artifact.js";
import { NOT_REDACTED, RedactionCollector, type RedactionSummary } from "../../../shared/redact/fields.js";
import { type CreateDeps, type Created, type CreateWarning, NOT_REDACTED_WARNING } from "./create.js";
import { kernelTimestamp } from "../../../shared/time/timestamps.js";
import type { Env } from "../../platform/env.js";
import { repoRelative } from "../../platform/paths.js";

/**
 * `handoff create --format kernel`: a kernel.handoff/v1 manifest, the canonical JSON form. The
 * agent supplies a partial manifest (objective, contract, workflow, context, execution, ...) as
 * JSON; identity and provenance come from git, pinned files get their sha256. The manifest is
 * validated before anything is written: one that does not validate is not written at all.
 */

export const KERNEL_FORMAT = "kernel.handoff/v1";
/** The kernel contract's home for manifests, inside the repository. */
export const KERNEL_DIR = "_meta/handoffs";

export interface KernelCreateOptions {
  /** The partial manifest, as JSON text (the body). */
  partialText: string;
  /** identity.name when the partial names none (from --title). */
  name?: string;
  /** Files to pin (from --pin), relative to cwd. */
  pins: string[];
  to?: string | undefined;
  cwd: string;
  env: Env;
  /** False only for an explicit --no-redact. */
  redact?: boolean;
}

export interface KernelMetadata {
  identity: Record<string, unknown>;
  provenance: Record<string, unknown>;
}

export interface KernelCreateResult {
  path: string;
  format: typeof KERNEL_FORMAT;
  metadata: KernelMetadata;
  warnings: CreateWarning[];
  resume_command: string;
  destination: "repository" | "chosen";
  retention: string;
  notes: string[];
  redaction: RedactionSummary;
}

export const KERNEL_RETENTION = "written into the repository, uncommitted: commit and push it (or publish it) so another machine can resume";

export async function createKernelHandoff(options: KernelCreateOptions, deps: CreateDeps): Promise<Created<KernelCreateResult>> {
  const oversizedPartial = oversizedError(new TextEncoder().encode(options.partialText).length, "body");
  if (oversizedPartial) throw oversizedPartial;
  const parsed = parseStrictJson(options.partialText);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    throw new HandoffError("invalid_document", `the partial manifest is not valid JSON: line ${line}, column ${column}: ${message}`, {
      hint: "--format kernel takes a JSON object (objective, workflow, context, execution, ...) as the body",
    });
  }
  const git = await deps.captureGit(options.cwd, options.env);
  if (!git || git.head === undefined) {
    throw new HandoffError("usage", "--format kernel records git provenance (branch and commit), and there is none here", {
      hint: git ? "make a first commit, or use --format ce" : "run it inside a git repository, or use --format ce",
    });
  }
  // Every string the agent wrote is scanned on its own, so a replacement never breaks the JSON.
  const redactor = options.redact === false ? undefined : new RedactionCollector();
  const partial = redactor ? redactor.json(parsed.value) : parsed.value;
  const name = options.name !== undefined && redactor ? redactor.text("--title", options.name) : options.name;
  const now = deps.now();
  const notes: string[] = [];
  const dirty = git.dirty > 0;
  // Listings title a manifest by identity.name: the objective says what it is about, the folder
  // name ("repo") says nothing; the folder is the last resort.
  const goal = (partial as { objective?: { goal?: unknown } } | undefined)?.objective?.goal;
  const fallback = typeof goal === "string" && goal.trim() !== "" ? [...goal.trim().replace(/\s+/g, " ")].slice(0, 80).join("") : basename(git.toplevel);
  const captured = {
    name: name ?? fallback,
    created: kernelTimestamp(now),
    branch: git.branch ?? "HEAD",
    commit: git.head,
    dirty,
    artifacts: options.pins.map((pin) => pinArtifact(resolve(options.cwd, pin), git.toplevel)),
  };
  if (name === undefined)
    notes.push(
      `identity.name defaults to ${fallback === basename(git.toplevel) ? "the repository folder" : "the objective's goal"} "${captured.name}" unless the partial names one; pass --title to choose it`,
    );

  const target = kernelTarget(options, git.toplevel, KERNEL_DIR, captured.name, now);
  const build = (path: string) => validated(buildKernelManifest(partial, captured, { manifestPath: promptPath(git.toplevel, path) }));
  // Validate before creating any folder or reserving any name, so an invalid manifest leaves
  // nothing behind; the callback rebuilds it for the name actually won (only the prompt differs).
  let manifest = build(`${target.dir}${sep}${target.stem}${target.ext}`);
  const oversized = oversizedError(new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`).length, "manifest");
  if (oversized) throw oversized;
  if (options.to === undefined) makeKernelDir(target.dir, git.toplevel);
  const written = writeExclusive(target.dir, target.stem, target.ext, (path) => {
    manifest = build(path);
    return new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
  });
  const { identity, provenance } = manifest as { identity: Record<string, unknown>; provenance: Record<string, unknown> };

  const warnings: CreateWarning[] = [];
  if (!redactor) warnings.push(NOT_REDACTED_WARNING);
  if (written.takenName) warnings.push({ code: "name_taken", message: `${written.takenName} already exists: wrote ${written.path} instead (nothing is overwritten)` });
  const localRoots = [git.toplevel, options.cwd].filter((p) => p !== "/");
  warnings.push(...continuityWarnings({ git, body: JSON.stringify(partial), localRoots }));
  const result: KernelCreateResult = {
    path: written.path,
    format: KERNEL_FORMAT,
    metadata: { identity, provenance },
    warnings,
    resume_command: resumeCommand(written.path),
    destination: options.to === undefined ? "repository" : "chosen",
    retention: KERNEL_RETENTION,
    notes,
    redaction: redactor ? redactor.summary() : NOT_REDACTED,
  };
  return { result, document: written.text, label: { format: KERNEL_FORMAT, title: String(identity.name), created_at: captured.created } };
}

/** Repo-relative when the manifest lives in the repository (the prompt then works from any clone). */
function promptPath(toplevel: string, path: string): string {
  return repoRelative(toplevel, path) ?? path;
}

/** A manifest that does not validate does not exist: throw with every issue, write nothing. */
function validated(candidate: unknown): Record<string, unknown> {
  const result = validateKernelValue(candidate);
  if (result.ok) return candidate as Record<string, unknown>;
  const lines = result.issues.map((issue) => `  ${issue.path || "$"}: ${issue.message}`);
  throw new HandoffError("invalid_document", `the kernel manifest does not validate, so it was not written:\n${lines.join("\n")}`, {
    hint: "fix the partial manifest (--body-file) and run the command again; 'handoff validate FILE.json' checks a manifest",
    details: { issues: result.issues },
  });
}

/** --pin PATH: a file inside the repository, recorded repo-relative with the sha256 of its bytes. */
function pinArtifact(path: string, toplevel: string): PinnedArtifact {
  const inRepo = repoRelative(toplevel, path);
  if (inRepo === undefined || inRepo === "") {
    throw new HandoffError("usage", `--pin ${path} is outside the repository ${toplevel}`, { hint: "pin files inside the repository" });
  }
  const sha256 = hashPinnedFile(path, { what: "--pin" });
  if (sha256 === "too_large")
    throw new HandoffError("too_large", `--pin ${path} is larger than ${PINNED_FILE_LIMIT / 1024 / 1024} MiB`, { hint: "pin smaller files (resume could not check a bigger one either)" });
  return { path: inRepo, sha256 };
}
